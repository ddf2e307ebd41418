// The output of `sonicsim plan`: the answer and its evidence as text on stdout, and the same as plan.json.
#pragma once

#include "sim/planning/plan_result.hpp"

#include <filesystem>

#include <nlohmann/json.hpp>

namespace sonicsim {

void print_plan(const planning::Plan& plan);
nlohmann::ordered_json plan_to_json(const planning::Plan& plan);
void write_plan_json(const std::filesystem::path& path, const planning::Plan& plan);

} // namespace sonicsim

// `sonicsim compare`'s table on the terminal and compare.json, from the columns' figures
// (sim/planning/compare_figures.hpp).
#pragma once

#include "sim/planning/compare_figures.hpp"

#include <nlohmann/json.hpp>

namespace sonicsim {

void print_compare_table(const CompareTable& table);
nlohmann::ordered_json compare_to_json(const CompareTable& table);

} // namespace sonicsim

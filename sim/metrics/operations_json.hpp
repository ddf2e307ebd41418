// summary.json's `operations` section (OperationsSummary), written and read back.
#pragma once

#include "sim/metrics/operations_summary.hpp"

#include <nlohmann/json.hpp>

namespace sonicsim {

nlohmann::ordered_json operations_to_json(const OperationsSummary& operations);
OperationsSummary operations_from_json(const nlohmann::ordered_json& in);

} // namespace sonicsim

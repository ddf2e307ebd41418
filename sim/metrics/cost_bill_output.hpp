// A cost bill as people read it (a table per item, per hour and per event) and as files hold it (JSON).
#pragma once

#include "sim/metrics/run_figures.hpp"

#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

namespace sonicsim {

nlohmann::ordered_json cost_bill_to_json(const CostBill& bill);

// One line per item ("  14 T4 devices x 0.35 USD/h (costs.device_hour.T4) = 4.9 USD/h, 0.000312 USD/event,
// 27 %"), the total, and what is held but not priced. Each line starts with `indent`.
void print_cost_bill(std::ostream& out, const CostBill& bill, const std::string& indent);

} // namespace sonicsim

#include "sim/metrics/cost_bill_output.hpp"

#include "sim/metrics/number_text.hpp"

#include <ostream>
#include <string>

namespace sonicsim {

nlohmann::ordered_json cost_bill_to_json(const CostBill& bill) {
  nlohmann::ordered_json items = nlohmann::ordered_json::array();
  for (const auto& item : bill.items)
    items.push_back({{"item", item.item},
                     {"price_key", item.price_key},
                     {"count", item.count},
                     {"usd_per_hour_each", item.usd_per_hour_each},
                     {"usd_per_hour", item.usd_per_hour},
                     {"usd_per_event", item.usd_per_event},
                     {"held", item.held},
                     {"share", bill.usd_per_hour > 0 ? item.usd_per_hour / bill.usd_per_hour : 0.0}});
  return {{"events_per_s", bill.events_per_s},
          {"items", items},
          {"unpriced", bill.unpriced},
          {"usd_per_hour", bill.usd_per_hour},
          {"usd_per_event", bill.usd_per_event},
          {"device_hours_per_event", bill.device_hours_per_event},
          {"cpu_core_hours_per_event", bill.cpu_core_hours_per_event}};
}

namespace {

// A price or a count as people write it: 4, 0.35, 0.001546 (significant digits, no trailing zeros).
std::string plain(double value) {
  std::string text = significant(value, 4);
  if (text.find('.') != std::string::npos) {
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

} // namespace

void print_cost_bill(std::ostream& out, const CostBill& bill, const std::string& indent) {
  for (const auto& item : bill.items)
    out << indent << plain(item.count) << ' ' << item.item << " (" << item.held << ") x "
        << plain(item.usd_per_hour_each) << " USD/h (" << item.price_key << ") = " << plain(item.usd_per_hour)
        << " USD/h, " << plain(item.usd_per_event) << " USD/event, "
        << plain(bill.usd_per_hour > 0 ? 100.0 * item.usd_per_hour / bill.usd_per_hour : 0.0) << " %\n";
  out << indent << "total " << plain(bill.usd_per_hour) << " USD/h, " << plain(bill.usd_per_event)
      << " USD/event at " << plain(bill.events_per_s) << " events/s\n";
  for (const auto& unpriced : bill.unpriced)
    out << indent << "not priced: " << unpriced << "\n";
}

} // namespace sonicsim

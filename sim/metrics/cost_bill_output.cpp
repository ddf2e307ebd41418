#include "sim/metrics/cost_bill_output.hpp"

#include "sim/metrics/number_text.hpp"

#include <ostream>

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
                     {"share", bill.usd_per_hour > 0 ? item.usd_per_hour / bill.usd_per_hour : 0.0}});
  return {{"events_per_s", bill.events_per_s},
          {"items", items},
          {"unpriced", bill.unpriced},
          {"usd_per_hour", bill.usd_per_hour},
          {"usd_per_event", bill.usd_per_event},
          {"device_hours_per_event", bill.device_hours_per_event},
          {"cpu_core_hours_per_event", bill.cpu_core_hours_per_event}};
}

void print_cost_bill(std::ostream& out, const CostBill& bill, const std::string& indent) {
  for (const auto& item : bill.items)
    out << indent << significant(item.count, 6) << ' ' << item.item << " x "
        << significant(item.usd_per_hour_each, 4) << " USD/h (" << item.price_key
        << ") = " << significant(item.usd_per_hour, 4) << " USD/h, " << significant(item.usd_per_event, 4)
        << " USD/event, "
        << significant(bill.usd_per_hour > 0 ? 100.0 * item.usd_per_hour / bill.usd_per_hour : 0.0, 3)
        << " %\n";
  out << indent << "total " << significant(bill.usd_per_hour, 4) << " USD/h, "
      << significant(bill.usd_per_event, 4) << " USD/event at " << significant(bill.events_per_s, 4)
      << " events/s\n";
  for (const auto& unpriced : bill.unpriced)
    out << indent << "not priced: " << unpriced << "\n";
}

} // namespace sonicsim

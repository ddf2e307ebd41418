#include "sim/planning/plan_target.hpp"

#include "sim/scenario/input_error.hpp"
#include "sim/scenario/units.hpp"

#include <cmath>
#include <cstdio>

namespace sonicsim::planning {
namespace {

const std::string expected =
    "expected OBSERVABLE<=LIMIT or >=LIMIT with module_time<=15s or module_time<=1.10x (relative to low "
    "load), event_time<=130s, event_time_p95<=200s, throughput>=2.2 (events/s), cost_per_event<=0.002 (USD)";

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

double plain_number(const std::string& text, const std::string& whole) {
  try {
    return parse_number(text);
  } catch (const UnitError&) {
    throw InputError("--target '" + whole + "': '" + text + "' is not a plain number; " + expected);
  }
}

} // namespace

const char* observable_name(Observable observable) {
  switch (observable) {
  case Observable::event_time:
    return "event_time";
  case Observable::event_time_p95:
    return "event_time_p95";
  case Observable::throughput:
    return "throughput";
  case Observable::cost_per_event:
    return "cost_per_event";
  case Observable::module_time:
    break;
  }
  return "module_time";
}

std::string target_unit(const PlanTarget& target) {
  if (target.relative) return "x ref";
  switch (target.observable) {
  case Observable::throughput:
    return "events/s";
  case Observable::cost_per_event:
    return "USD";
  default:
    return "s";
  }
}

PlanTarget parse_plan_target(const std::string& text) {
  const auto le = text.find("<=");
  const auto ge = text.find(">=");
  if ((le == std::string::npos) == (ge == std::string::npos))
    throw InputError("--target '" + text + "': no single '<=' or '>='; " + expected);
  PlanTarget target;
  target.text = text;
  target.at_most = le != std::string::npos;
  const auto at = target.at_most ? le : ge;
  const std::string name = trim(text.substr(0, at));
  const std::string value = trim(text.substr(at + 2));
  if (name == "module_time")
    target.observable = Observable::module_time;
  else if (name == "event_time")
    target.observable = Observable::event_time;
  else if (name == "event_time_p95")
    target.observable = Observable::event_time_p95;
  else if (name == "throughput")
    target.observable = Observable::throughput;
  else if (name == "cost_per_event")
    target.observable = Observable::cost_per_event;
  else
    throw InputError("--target '" + text + "': unknown observable '" + name + "'; " + expected);
  const bool is_time = target.observable == Observable::module_time ||
                       target.observable == Observable::event_time ||
                       target.observable == Observable::event_time_p95;
  const bool ceiling = target.observable != Observable::throughput;
  if (ceiling != target.at_most)
    throw InputError("--target '" + text + "': " + name + " takes " + (ceiling ? "<=" : ">=") +
                     " (a time or a cost is a ceiling, a throughput a floor); " + expected);
  if (!value.empty() && value.back() == 'x') {
    if (target.observable != Observable::module_time)
      throw InputError("--target '" + text + "': only module_time takes a factor of its low-load time (x)");
    target.relative = true;
    target.limit = plain_number(value.substr(0, value.size() - 1), text);
    if (!(target.limit > 1.0))
      throw InputError("--target '" + text + "': the factor must be above 1 (1.10: 10 % over low load)");
    return target;
  }
  if (is_time) {
    try {
      target.limit = parse_duration_s(value);
    } catch (const UnitError& e) {
      throw InputError("--target '" + text + "': " + e.what());
    }
  } else {
    std::string number = value;
    for (const std::string unit : {"events/s", "USD"})
      if (number.size() > unit.size() && number.compare(number.size() - unit.size(), unit.size(), unit) == 0)
        number = trim(number.substr(0, number.size() - unit.size()));
    target.limit = plain_number(number, text);
  }
  if (!(target.limit > 0.0) || !std::isfinite(target.limit))
    throw InputError("--target '" + text + "': the limit must be a positive finite number");
  return target;
}

PlanTarget relative_module_target(double tolerance) {
  PlanTarget target;
  target.relative = true;
  target.limit = 1.0 + tolerance;
  char text[64];
  std::snprintf(text, sizeof text, "module_time<=%.4gx", target.limit);
  target.text = text;
  return target;
}

Decision decide(const PlanTarget& target, const ConfidenceInterval& value, double indifference,
                bool* by_mean) {
  if (by_mean) *by_mean = false;
  const double worst = target.at_most ? value.high() : value.low();
  const double best = target.at_most ? value.low() : value.high();
  const bool worst_meets = target.at_most ? worst <= target.limit : worst >= target.limit;
  const bool best_meets = target.at_most ? best <= target.limit : best >= target.limit;
  if (worst_meets) return Decision::yes;
  if (!best_meets) return Decision::no;
  if (value.has_interval() && value.half_width <= indifference * std::abs(target.limit)) {
    if (by_mean) *by_mean = true;
    const bool mean_meets = target.at_most ? value.mean <= target.limit : value.mean >= target.limit;
    return mean_meets ? Decision::yes : Decision::no;
  }
  return Decision::undecided;
}

bool monotone_in_devices(const PlanTarget& target) {
  return target.observable != Observable::cost_per_event;
}

} // namespace sonicsim::planning

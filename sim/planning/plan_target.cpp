#include "sim/planning/plan_target.hpp"

#include "sim/scenario/input_error.hpp"
#include "sim/scenario/units.hpp"

#include <cmath>
#include <cstdio>

namespace sonicsim::planning {
namespace {

const std::string expected =
    "expected FIGURE<=LIMIT (a figure better lower) or FIGURE>=LIMIT (better higher), e.g. "
    "module_mean_s<=15s, module_mean_s<=1.10x (relative to low load), event_mean_s<=130s, event_p95_s<=200s, "
    "events_per_s>=2.2, cost_usd_per_event<=0.002, gpu_utilisation<=0.8";

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

// The figures a candidate can have below zero: the gain over direct inference is a loss when the remote
// calls cost more than the local ones. Every other figure is a time, a rate, a fraction, a price or a count.
bool can_be_negative(Figure figure) {
  return figure == Figure::direct_inference_gain;
}

} // namespace

std::string target_unit(const PlanTarget& target) {
  if (target.relative) return "x ref";
  const std::string unit = spec_of(target.figure.figure).unit;
  return unit == "fraction" || unit == "count" ? "" : unit;
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
  target.figure = parse_figure_name(name, "--target '" + text + "'");
  const FigureSpec& spec = spec_of(target.figure.figure);
  const bool ceiling = spec.better == Better::lower;
  if (ceiling != target.at_most)
    throw InputError("--target '" + text + "': " + spec.name + " takes " + (ceiling ? "<=" : ">=") +
                     " (it is better " + (ceiling ? "lower" : "higher") + "); " + expected);
  const bool is_time = std::string(spec.unit) == "s";
  if (!value.empty() && value.back() == 'x') {
    // A factor of the figure's value at low load (the reference run): above 1 for a ceiling (1.10: at most
    // 10 % worse), below 1 for a floor (0.95: at least 95 % of it).
    target.relative = true;
    target.limit = plain_number(value.substr(0, value.size() - 1), text);
    if (ceiling && !(target.limit > 1.0 && std::isfinite(target.limit)))
      throw InputError("--target '" + text +
                       "': a ceiling's factor must be above 1 (1.10: 10 % over low load)");
    if (!ceiling && !(target.limit > 0.0 && target.limit < 1.0))
      throw InputError(
          "--target '" + text +
          "': a floor's factor must be between 0 and 1 (0.95: at least 95 % of its low-load value)");
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
    const std::string unit = spec.unit;
    if (number.size() > unit.size() && number.compare(number.size() - unit.size(), unit.size(), unit) == 0)
      number = trim(number.substr(0, number.size() - unit.size()));
    target.limit = plain_number(number, text);
  }
  if (!std::isfinite(target.limit))
    throw InputError("--target '" + text + "': the limit must be a finite number");
  if (can_be_negative(target.figure.figure)) return target; // break-even (>=0) and losses are questions too
  if (target.limit < 0.0 || (target.limit == 0.0 && !target.at_most))
    throw InputError("--target '" + text + "': " + spec.name + " is never negative, so a limit of " + value +
                     " is met by every candidate; " + "the limit must be positive");
  if (target.limit == 0.0 && std::string(spec.unit) != "count")
    throw InputError("--target '" + text + "': " + spec.name +
                     " is above 0 whenever anything runs, so no candidate meets it; the limit must be "
                     "positive (<=0 is for counts: events_failed<=0)");
  return target;
}

PlanTarget relative_module_target(double tolerance) {
  PlanTarget target;
  target.relative = true;
  target.limit = 1.0 + tolerance;
  char text[64];
  std::snprintf(text, sizeof text, "module_mean_s<=%.4gx", target.limit);
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
  return spec_of(target.figure.figure).more_devices_help;
}

} // namespace sonicsim::planning

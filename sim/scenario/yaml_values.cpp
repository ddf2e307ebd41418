#include "sim/scenario/yaml_values.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>

#include "sim/scenario/schema.hpp"
#include "sim/scenario/units.hpp"

namespace sonicsim {
namespace {

template <typename Parse>
double read_with(const Cursor& c, const std::string& what, Parse parse, double bound, const char* bound_text,
                 double smallest = 0.0, const char* smallest_text = "") {
  const std::string text = c.scalar(what);
  double value = 0.0;
  try {
    value = parse(text);
  } catch (const UnitError& e) {
    c.fail(e.what());
  }
  // "1e308h" converts to infinity, "1e400" parses as infinity: neither is a value the simulation can use.
  require(c, std::isfinite(value) && std::abs(value) <= bound,
          std::string("a finite value of at most ") + bound_text);
  // Denormal-sized values ("12e-307ms") pass every sign check and then divide into infinity.
  require(c, value == 0.0 || std::abs(value) >= smallest, std::string("0 or at least ") + smallest_text);
  return value;
}

double read_quantity(const Cursor& c, Quantity quantity) {
  return quantity == Quantity::duration ? read_duration_s(c) : read_number(c);
}

std::string quantity_example(Quantity quantity) {
  return quantity == Quantity::duration ? "\"110s\"" : "55000";
}

} // namespace

double read_duration_s(const Cursor& c) {
  return read_with(c, "a duration with a unit, e.g. \"12ms\"", parse_duration_s, max_duration_s,
                   "10 years (longer simulated times are typos)", min_duration_s, "1 ps");
}
double read_bytes(const Cursor& c) {
  return read_with(c, "a size with a unit, e.g. \"9216B\"", parse_bytes, max_bytes, "1 TB", 1e-3,
                   "1 mB (a thousandth of a byte)");
}
double read_bandwidth_bps(const Cursor& c) {
  return read_with(c, "a bandwidth with a unit, e.g. \"10Gbps\"", parse_bandwidth_bps, max_bandwidth_bps,
                   "1 Pb/s");
}
double read_number(const Cursor& c) {
  return read_with(c, "a number", parse_number, max_number, "1e15");
}

int read_int(const Cursor& c, int minimum, int maximum) {
  const std::string expected = "an integer in " + std::to_string(minimum) + ".." + std::to_string(maximum);
  const std::string text = c.scalar(expected);
  long long value = 0;
  try {
    value = parse_integer(text);
  } catch (const UnitError& e) {
    c.fail(e.what());
  }
  require(c, value >= minimum && value <= maximum, expected);
  return static_cast<int>(value);
}

bool read_bool(const Cursor& c) {
  const std::string text = c.scalar("true or false");
  if (text == "true" || text == "True" || text == "yes") return true;
  if (text == "false" || text == "False" || text == "no") return false;
  c.fail_value("true or false");
}

std::string read_string(const Cursor& c) {
  return c.scalar("a string");
}

std::string read_choice(const Cursor& c, const std::vector<std::string>& choices) {
  std::string list;
  for (const auto& choice : choices)
    list += (list.empty() ? "" : " | ") + choice;
  const std::string text = c.scalar("one of " + list);
  if (std::find(choices.begin(), choices.end(), text) == choices.end())
    c.fail("got \"" + text + "\"; expected one of " + list + schema::suggestion(text, choices));
  return text;
}

DistributionSpec read_distribution(const Cursor& c, Quantity quantity) {
  using Kind = DistributionSpec::Kind;
  DistributionSpec spec;
  const std::string example = quantity_example(quantity);
  if (!c.present() || !c.node().IsMap()) {
    c.scalar("a value, e.g. " + example + ", or a map {dist: normal, mean: ..., sd: ...}");
    spec.kind = Kind::constant;
    spec.mean = read_quantity(c, quantity);
    require(c, spec.mean >= 0, "a value >= 0");
    return spec;
  }
  // The keys were checked against the distribution kind by schema::check_document.
  const std::string kind =
      read_choice(c["dist"], {"constant", "normal", "lognormal", "exponential", "uniform"});
  const auto parameter = [&](const char* key) { return read_quantity(c[key], quantity); };
  if (kind == "constant") {
    spec.kind = Kind::constant;
    spec.mean = parameter("value");
    require(c["value"], spec.mean >= 0, "a value >= 0");
  } else if (kind == "normal" || kind == "lognormal") {
    spec.kind = kind == "normal" ? Kind::normal : Kind::lognormal;
    spec.mean = parameter("mean");
    spec.sd = parameter("sd");
    if (spec.kind == Kind::normal)
      require(c["mean"], spec.mean >= 0, "a mean >= 0");
    else
      require(c["mean"], spec.mean > 0, "a mean > 0 (a lognormal quantity is positive)");
    require(c["sd"], spec.sd >= 0, "a standard deviation >= 0");
    // sigma^2 = ln(1 + (sd / mean)^2) must stay finite and meaningful: an sd 1000 times the mean already puts
    // almost all the mass near 0 and the mean in a tail no run samples.
    if (spec.kind == Kind::lognormal)
      require(c["sd"], spec.sd <= 1000.0 * spec.mean,
              "a standard deviation of at most 1000 x the mean for a lognormal");
  } else if (kind == "exponential") {
    spec.kind = Kind::exponential;
    spec.mean = parameter("mean");
    require(c["mean"], spec.mean > 0, "a mean > 0");
  } else {
    spec.kind = Kind::uniform;
    spec.min = parameter("min");
    spec.max = parameter("max");
    require(c["min"], spec.min >= 0, "a lower bound >= 0");
    require(c["max"], spec.max >= spec.min, "an upper bound >= min (" + c["min"].node().Scalar() + ")");
  }
  return spec;
}

uint64_t read_seed(const Cursor& c) {
  const std::string text = c.scalar("an integer >= 0");
  // Plain digits are read exactly over the whole 64-bit range: replications, plans and calibrations derive
  // 64-bit seeds and print them (replications.json, plan.json), and `run --seed S` must reproduce each one.
  if (!text.empty() &&
      std::all_of(text.begin(), text.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
    uint64_t seed = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seed);
    require(c, error == std::errc() && end == text.data() + text.size(),
            "an integer from 0 to 18446744073709551615 (2^64 - 1)");
    return seed;
  }
  long long seed = 0;
  try {
    seed = parse_integer(text); // other spellings (1e6): up to 2^53, exact in a double
  } catch (const UnitError& e) {
    c.fail(e.what());
  }
  require(c, seed >= 0, "an integer >= 0");
  return static_cast<uint64_t>(seed);
}

} // namespace sonicsim

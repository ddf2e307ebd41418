#include "sim/scenario/units.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace sonicsim {
namespace {

struct UnitFactor {
  std::string suffix;
  double factor; // multiplies the number to give the SI value
};

// The quantity kinds differ only in their table of suffixes and their example; one parser serves all of them.
struct QuantityKind {
  const char* noun;    // "duration"
  const char* example; // "\"12ms\""
  std::vector<UnitFactor> units;
  const char* known; // list shown in errors
};

std::string quoted(const std::string& s) {
  return "\"" + s + "\"";
}

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

// Splits "12.5 ms" into the number and the unit text. Returns false when no number starts the text.
bool split_number(const std::string& text, double& value, std::string& unit) {
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  if (begin != end && *begin == '+') ++begin; // from_chars rejects a leading '+', YAML users may write one
  // from_chars would accept "inf" and "nan"; a quantity must start with a digit, a sign or a decimal point.
  if (begin == end || !(std::isdigit(static_cast<unsigned char>(*begin)) || *begin == '-' || *begin == '.'))
    return false;
  const auto result = std::from_chars(begin, end, value);
  if (result.ec != std::errc() || !std::isfinite(value)) return false;
  unit = trim(std::string(result.ptr, end));
  return true;
}

double parse_quantity(const std::string& raw, const QuantityKind& kind) {
  const std::string text = trim(raw);
  const std::string expected = std::string("expected a ") + kind.noun + " with a unit, e.g. " + kind.example;
  double value = 0.0;
  std::string unit;
  if (!split_number(text, value, unit)) throw UnitError(expected + "; got " + quoted(raw));
  if (unit.empty()) throw UnitError(expected + "; got the bare number " + quoted(raw));
  for (const auto& u : kind.units)
    if (unit == u.suffix) return value * u.factor;
  throw UnitError("unknown " + std::string(kind.noun) + " unit '" + unit + "' in " + quoted(raw) + "; " +
                  expected + " (units: " + kind.known + ")");
}

const QuantityKind& duration_kind() {
  static const QuantityKind kind{"duration",
                                 "\"12ms\"",
                                 {{"ns", 1e-9},
                                  {"us", 1e-6},
                                  {"\xC2\xB5s", 1e-6}, // µs in UTF-8
                                  {"ms", 1e-3},
                                  {"s", 1.0},
                                  {"min", 60.0},
                                  {"h", 3600.0}},
                                 "ns, us, ms, s, min, h"};
  return kind;
}

const QuantityKind& bytes_kind() {
  static const QuantityKind kind{"size in bytes",
                                 "\"9216B\" or \"3MB\"",
                                 {{"B", 1.0},
                                  {"kB", 1e3},
                                  {"MB", 1e6},
                                  {"GB", 1e9},
                                  {"TB", 1e12},
                                  {"KiB", 1024.0},
                                  {"MiB", 1024.0 * 1024.0},
                                  {"GiB", 1024.0 * 1024.0 * 1024.0},
                                  {"TiB", 1024.0 * 1024.0 * 1024.0 * 1024.0}},
                                 "B, kB, MB, GB, TB (x1000), KiB, MiB, GiB, TiB (x1024)"};
  return kind;
}

const QuantityKind& bandwidth_kind() {
  static const QuantityKind kind = [] {
    QuantityKind k{"bandwidth",
                   "\"10Gbps\"",
                   {},
                   "bps, kbps, Mbps, Gbps, Tbps (also Gb/s, Gbit/s); bytes/s: MBps, GB/s"};
    const std::vector<std::pair<std::string, double>> prefixes{
        {"", 1.0}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}};
    for (const auto& [prefix, factor] : prefixes) {
      for (const char* bits : {"bps", "b/s", "bit/s"})
        k.units.push_back({prefix + bits, factor});
      for (const char* bytes : {"Bps", "B/s"})
        k.units.push_back({prefix + bytes, 8.0 * factor}); // bytes -> bits
    }
    return k;
  }();
  return kind;
}

} // namespace

double parse_duration_s(const std::string& text) {
  return parse_quantity(text, duration_kind());
}

double parse_bytes(const std::string& text) {
  try {
    return parse_quantity(text, bytes_kind());
  } catch (const UnitError& e) {
    // Two common slips deserve a precise hint: "KB" (ambiguous) and a lowercase b (bits, not bytes).
    const std::string t = trim(text);
    if (t.size() >= 2 && t.compare(t.size() - 2, 2, "KB") == 0)
      throw UnitError(std::string(e.what()) + "; 'KB' is ambiguous: write 'kB' (1000 B) or 'KiB' (1024 B)");
    if (!t.empty() && t.back() == 'b')
      throw UnitError(std::string(e.what()) + "; a lowercase 'b' means bits: write 'B' for bytes");
    throw;
  }
}

double parse_bandwidth_bps(const std::string& text) {
  return parse_quantity(text, bandwidth_kind());
}

double parse_number(const std::string& raw) {
  const std::string text = trim(raw);
  double value = 0.0;
  std::string unit;
  if (!split_number(text, value, unit))
    throw UnitError("expected a number, e.g. \"0.5\"; got " + quoted(raw));
  if (!unit.empty())
    throw UnitError("expected a plain number without a unit; got " + quoted(raw) + " (unexpected '" + unit +
                    "')");
  return value;
}

long long parse_integer(const std::string& raw) {
  double value = 0.0;
  try {
    value = parse_number(raw);
  } catch (const UnitError&) {
    throw UnitError("expected an integer, e.g. \"4\"; got " + quoted(raw));
  }
  if (value != std::floor(value)) throw UnitError("expected an integer, e.g. \"4\"; got " + quoted(raw));
  // 2^53: every integer up to here is exact in a double, and it is far beyond any count a scenario needs.
  constexpr double limit = 9007199254740992.0;
  if (std::fabs(value) > limit) throw UnitError("integer out of range; got " + quoted(raw));
  return static_cast<long long>(value);
}

} // namespace sonicsim

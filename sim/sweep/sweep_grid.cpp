#include "sim/sweep/sweep_grid.hpp"

#include "sim/scenario/input_error.hpp"
#include "sim/scenario/overrides.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace sonicsim {
namespace {

// Splits at `separator` outside brackets and braces (a YAML value such as "[4, 8]" stays whole).
std::vector<std::string> split_top_level(const std::string& text, char separator) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (const char c : text) {
    if (c == '[' || c == '{') ++depth;
    if (c == ']' || c == '}') --depth;
    if (c == separator && depth == 0) {
      parts.emplace_back();
      continue;
    }
    parts.back() += c;
  }
  return parts;
}

struct Number {
  double value = 0.0;
  bool integer = false;
  std::string suffix; // unit, e.g. "ms"
};

Number parse_number(const std::string& text, const std::string& spec) {
  const char* begin = text.c_str();
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(begin, &end);
  if (end == begin || errno == ERANGE || !std::isfinite(value))
    throw InputError("bad range '" + spec + "': '" + text + "' is not a number (expected start:stop:step)");
  Number number;
  number.value = value;
  const std::string digits(begin, static_cast<std::size_t>(end - begin));
  number.integer = digits.find_first_of(".eEnN") == std::string::npos;
  number.suffix = std::string(end);
  return number;
}

std::string format_value(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.12g", value);
  return buffer;
}

std::vector<std::string> expand_range(const std::vector<std::string>& parts, const std::string& spec) {
  if (parts.size() != 3 || parts[0].empty() || parts[1].empty() || parts[2].empty())
    throw InputError("bad range '" + spec + "': expected start:stop:step, e.g. 1:500:20");
  const Number start = parse_number(parts[0], spec);
  const Number stop = parse_number(parts[1], spec);
  const Number step = parse_number(parts[2], spec);
  if (start.suffix != stop.suffix || (!step.suffix.empty() && step.suffix != start.suffix))
    throw InputError("bad range '" + spec + "': start, stop and step must use the same unit");
  if (!(step.value > 0.0)) throw InputError("bad range '" + spec + "': step must be positive");
  if (start.value > stop.value) throw InputError("bad range '" + spec + "': start is larger than stop");
  const double count = std::floor((stop.value - start.value) / step.value * (1.0 + 1e-12)) + 1.0;
  if (count > static_cast<double>(max_sweep_points))
    throw InputError("bad range '" + spec + "': " + format_value(count) +
                     " values is more than a sweep can hold");
  std::vector<std::string> values;
  const bool integers = start.integer && stop.integer && step.integer;
  for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i) {
    // Multiplying (not accumulating) keeps a decimal step free of drift.
    const double value = start.value + static_cast<double>(i) * step.value;
    values.push_back((integers ? std::to_string(std::llround(value)) : format_value(value)) + start.suffix);
  }
  return values;
}

} // namespace

std::vector<std::string> expand_values(const std::string& spec) {
  if (spec.empty()) throw InputError("empty value list: expected start:stop:step or a,b,c");
  const auto ranges = split_top_level(spec, ':');
  const auto items = split_top_level(spec, ',');
  if (ranges.size() > 1 && items.size() > 1)
    throw InputError("bad values '" + spec + "': either a range start:stop:step or a list a,b,c, not both");
  if (ranges.size() > 1) return expand_range(ranges, spec);
  for (const auto& item : items)
    if (item.empty()) throw InputError("bad list '" + spec + "': empty value");
  return items;
}

VaryAxis parse_vary(const std::string& argument) {
  const auto equals = argument.find('=');
  if (equals == std::string::npos || equals == 0)
    throw InputError("--vary '" + argument + "': expected KEY=start:stop:step or KEY=a,b,c");
  VaryAxis axis;
  axis.key = argument.substr(0, equals);
  validate_key_path(axis.key, "--vary " + argument);
  try {
    axis.values = expand_values(argument.substr(equals + 1));
  } catch (const InputError& error) {
    throw InputError("--vary " + axis.key + ": " + error.what());
  }
  return axis;
}

std::vector<int> parse_job_counts(const std::string& spec) {
  std::vector<int> jobs;
  for (const auto& value : expand_values(spec)) {
    char* end = nullptr;
    const long n = std::strtol(value.c_str(), &end, 10);
    if (end == value.c_str() || *end != '\0' || n < 1 || n > 1000000)
      throw InputError("job count '" + value + "' in '" + spec + "' is not an integer in [1, 1000000]");
    jobs.push_back(static_cast<int>(n));
  }
  return jobs;
}

std::vector<SweepPoint> build_grid(const std::vector<VaryAxis>& axes) {
  std::set<std::string> keys;
  double total = 1.0;
  for (const auto& axis : axes) {
    if (!keys.insert(axis.key).second) throw InputError("--vary " + axis.key + " is given twice");
    total *= static_cast<double>(axis.values.size());
  }
  if (total > static_cast<double>(max_sweep_points))
    throw InputError("the sweep grid has " + format_value(total) + " points, more than " +
                     std::to_string(max_sweep_points));
  std::vector<SweepPoint> points(static_cast<std::size_t>(total));
  for (std::size_t index = 0; index < points.size(); ++index) {
    points[index].index = index;
    points[index].values.resize(axes.size());
    std::size_t rest = index;
    for (std::size_t a = axes.size(); a-- > 0;) {
      points[index].values[a] = axes[a].values[rest % axes[a].values.size()];
      rest /= axes[a].values.size();
    }
  }
  return points;
}

std::vector<std::string> point_overrides(const std::vector<VaryAxis>& axes, const SweepPoint& point) {
  std::vector<std::string> overrides;
  for (std::size_t a = 0; a < axes.size(); ++a)
    overrides.push_back(axes[a].key + "=" + point.values[a]);
  return overrides;
}

Shard parse_shard(const std::string& text) {
  int index = 0, count = 0;
  char extra = 0;
  if (std::sscanf(text.c_str(), "%d/%d%c", &index, &count, &extra) != 2)
    throw InputError("--shard '" + text + "': expected i/n, e.g. 1/4");
  if (count < 1 || index < 1 || index > count)
    throw InputError("--shard " + text + ": shard out of range (i must be between 1 and n)");
  return Shard{index, count};
}

} // namespace sonicsim

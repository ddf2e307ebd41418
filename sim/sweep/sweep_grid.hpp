// What a sweep runs: --vary axes (KEY=start:stop:step or KEY=a,b,c), their grid, and --shard i/n. Pure code;
// every malformed argument is an InputError (or a ScenarioError for an unknown key) raised before any point
// runs.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace sonicsim {

// One --vary: a scenario key and the values it takes, as --set value strings.
struct VaryAxis {
  std::string key;
  std::vector<std::string> values;
};

// Expands a value specification.
// - Range start:stop:step: start, start + step, ... up to stop, which is included only when it falls on the
// grid
//   (1:500:20 is 1, 21, ..., 481: 25 values). step > 0 and start <= stop. Numbers may carry one unit suffix
//   shared by start and stop (and step, if it has one): "5ms:50ms:5ms". Integer ranges stay integers.
// - List a,b,c: the values as written (commas inside [..] or {..} belong to the value).
// - Anything else: that one value.
std::vector<std::string> expand_values(const std::string& spec);

// "KEY=SPEC". The key must name a field of the scenario schema (validate_key_path: ScenarioError otherwise).
VaryAxis parse_vary(const std::string& argument);

// Job counts for `analytic --jobs`: a range or list of positive integers.
std::vector<int> parse_job_counts(const std::string& spec);

struct SweepPoint {
  std::size_t index = 0;
  std::vector<std::string> values; // one per axis
};

// The Cartesian product, row-major: the first axis varies slowest, the last fastest. Throws InputError for
// more than max_sweep_points points or two axes with the same key.
constexpr std::size_t max_sweep_points = 1000000;
std::vector<SweepPoint> build_grid(const std::vector<VaryAxis>& axes);

// The --set overrides of one point: "key=value" per axis.
std::vector<std::string> point_overrides(const std::vector<VaryAxis>& axes, const SweepPoint& point);

// --shard i/n (1 <= i <= n): this machine runs the points whose index modulo n is i - 1.
struct Shard {
  int index = 1;
  int count = 1;
  bool contains(std::size_t point) const {
    return point % static_cast<std::size_t>(count) == static_cast<std::size_t>(index - 1);
  }
};
Shard parse_shard(const std::string& text);

} // namespace sonicsim

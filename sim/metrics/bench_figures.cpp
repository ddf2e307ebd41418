#include "sim/metrics/bench_figures.hpp"

#include <sys/resource.h>

#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace sonicsim {

double cpu_seconds(const rusage& usage) {
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

double scaling_exponent(double size_a, double cost_a, double size_b, double cost_b) {
  if (!(size_a > 0 && size_b > 0 && cost_a > 0 && cost_b > 0) || size_a == size_b)
    throw std::invalid_argument("scaling_exponent: two positive sizes that differ, and positive costs");
  return std::log(cost_b / cost_a) / std::log(size_b / size_a);
}

std::optional<double> printed_requests_per_s(const std::string& output) {
  const auto at = output.find("req/s=");
  if (at == std::string::npos) return std::nullopt;
  char* end = nullptr;
  const double rate = std::strtod(output.c_str() + at + 6, &end);
  if (end == output.c_str() + at + 6 || !(rate > 0.0) || !std::isfinite(rate)) return std::nullopt;
  return rate;
}

RequestBudget request_budget(double simulator_per_s, double floor_per_s, double peer_per_s,
                             double goal_ratio) {
  if (!(simulator_per_s > 0 && floor_per_s > 0 && peer_per_s > 0 && goal_ratio > 0))
    throw std::invalid_argument("request_budget: positive rates and goal");
  RequestBudget out;
  out.floor_us = 1e6 / floor_per_s;
  out.own_us = 1e6 / simulator_per_s - out.floor_us;
  out.own_us_at_goal = 1e6 / (goal_ratio * peer_per_s) - out.floor_us;
  out.floor_times_peer = floor_per_s / peer_per_s;
  return out;
}

} // namespace sonicsim

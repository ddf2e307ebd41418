#include "models/crossing.hpp"

#include <cmath>
#include <stdexcept>

namespace sonicsim::models {

std::optional<Crossing> first_fall_below(const std::vector<double>& xs, const std::vector<double>& ys,
                                         const std::vector<double>& levels, const std::vector<double>& y_se,
                                         const std::vector<double>& level_se) {
  const std::size_t n = xs.size();
  if (ys.size() != n || levels.size() != n || (!y_se.empty() && y_se.size() != n) ||
      (!level_se.empty() && level_se.size() != n))
    throw std::invalid_argument("first_fall_below: x, y, level and their errors differ in length");
  for (std::size_t i = 1; i < n; ++i)
    if (!(xs[i] > xs[i - 1])) throw std::invalid_argument("first_fall_below: x must increase");
  if (n < 2 || ys[0] < levels[0]) return std::nullopt;
  for (std::size_t i = 1; i < n; ++i) {
    if (ys[i] >= levels[i]) continue;
    // d = y - level goes from d0 >= 0 to d1 < 0: x = x0 + (x1 - x0) d0 / (d0 - d1).
    const double d0 = ys[i - 1] - levels[i - 1], d1 = ys[i] - levels[i];
    const double width = xs[i] - xs[i - 1];
    Crossing c;
    c.x = xs[i - 1] + width * d0 / (d0 - d1);
    c.lower_x = xs[i - 1];
    c.upper_x = xs[i];
    // dx/dd0 = width (-d1) / (d0 - d1)^2, dx/dd1 = width d0 / (d0 - d1)^2; var(d) = var(y) + var(level).
    auto variance = [&](std::size_t k) {
      const double y = y_se.empty() ? 0.0 : y_se[k], l = level_se.empty() ? 0.0 : level_se[k];
      return y * y + l * l;
    };
    const double scale = width / ((d0 - d1) * (d0 - d1));
    c.se = std::sqrt(scale * scale * (d1 * d1 * variance(i - 1) + d0 * d0 * variance(i)));
    return c;
  }
  return std::nullopt;
}

} // namespace sonicsim::models

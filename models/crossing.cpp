#include "models/crossing.hpp"

#include <algorithm>
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

std::vector<std::optional<Crossing>> first_falls_in_waves(const std::vector<std::vector<double>>& xs,
                                                          const CurveReader& read) {
  const std::size_t curves = xs.size();
  std::size_t longest = 0;
  std::vector<std::vector<double>> ys(curves), levels(curves);
  std::vector<bool> done(curves);
  for (std::size_t c = 0; c < curves; ++c) {
    done[c] = xs[c].size() < 2; // fewer than two points: no crossing to read
    longest = std::max(longest, xs[c].size());
  }
  for (std::size_t wave_end = 2; wave_end <= std::max<std::size_t>(2, longest); ++wave_end) {
    std::vector<std::pair<std::size_t, std::size_t>> asked;
    for (std::size_t c = 0; c < curves; ++c)
      for (std::size_t i = ys[c].size(); !done[c] && i < std::min(wave_end, xs[c].size()); ++i)
        asked.emplace_back(c, i);
    if (asked.empty()) break;
    const auto points = read(asked);
    if (points.size() != asked.size())
      throw std::invalid_argument("first_falls_in_waves: one value per point");
    for (std::size_t k = 0; k < asked.size(); ++k) {
      ys[asked[k].first].push_back(points[k].y);
      levels[asked[k].first].push_back(points[k].level);
    }
    for (std::size_t c = 0; c < curves; ++c) {
      const std::size_t n = ys[c].size();
      done[c] = done[c] || n == xs[c].size() || (n >= 1 && ys[c][0] < levels[c][0]) ||
                (n >= 2 && ys[c][n - 1] < levels[c][n - 1]);
    }
  }
  std::vector<std::optional<Crossing>> out;
  for (std::size_t c = 0; c < curves; ++c) {
    if (ys[c].size() < 2) {
      out.push_back(std::nullopt);
      continue;
    }
    const std::vector<double> read_xs(xs[c].begin(),
                                      xs[c].begin() + static_cast<std::ptrdiff_t>(ys[c].size()));
    out.push_back(first_fall_below(read_xs, ys[c], levels[c]));
  }
  return out;
}

std::vector<std::optional<Crossing>> first_falls_in_waves(const std::vector<double>& xs, std::size_t curves,
                                                          const CurveReader& read) {
  return first_falls_in_waves(std::vector<std::vector<double>>(curves, xs), read);
}

} // namespace sonicsim::models

#include "sim/calibration/rival_fits.hpp"

#include "models/chi_square.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace sonicsim {

double rival_margin(double best_chi_square, std::size_t points, std::size_t fitted) {
  const double reduced = points > fitted ? best_chi_square / static_cast<double>(points - fitted) : 1.0;
  return models::chi_square_95(static_cast<int>(std::max<std::size_t>(1, fitted))) * std::max(1.0, reduced);
}

std::vector<RivalFit> rival_fits(const std::vector<FitStart>& starts, std::size_t points,
                                 std::size_t fitted) {
  std::vector<RivalFit> out;
  if (starts.size() < 2) return out;
  std::size_t best = 0;
  for (std::size_t s = 1; s < starts.size(); ++s)
    if (starts[s].chi_square < starts[best].chi_square) best = s;
  const double limit = starts[best].chi_square + rival_margin(starts[best].chi_square, points, fitted);
  for (std::size_t s = 0; s < starts.size(); ++s)
    if (s != best && std::isfinite(starts[s].chi_square) && starts[s].chi_square <= limit)
      out.push_back({s, starts[s].values, starts[s].chi_square});
  return out;
}

} // namespace sonicsim

#include "sim/calibration/rival_fits.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace sonicsim {

double chi_square_95(int degrees_of_freedom) {
  if (degrees_of_freedom < 1)
    throw std::invalid_argument("chi_square_95: degrees of freedom must be 1 or more");
  // Tables of the chi-square distribution (e.g. NIST/SEMATECH e-Handbook, 1.3.6.7.4), upper 5 %.
  static constexpr double table[] = {3.841,  5.991,  7.815,  9.488,  11.070,
                                     12.592, 14.067, 15.507, 16.919, 18.307};
  if (degrees_of_freedom <= 10) return table[degrees_of_freedom - 1];
  // Wilson-Hilferty: (chi2 / k)^(1/3) is nearly normal with mean 1 - 2 / (9k) and variance 2 / (9k).
  const double k = degrees_of_freedom, z = 1.6448536269514722;
  const double c = 1.0 - 2.0 / (9.0 * k) + z * std::sqrt(2.0 / (9.0 * k));
  return k * c * c * c;
}

double rival_margin(double best_chi_square, std::size_t points, std::size_t fitted) {
  const double reduced = points > fitted ? best_chi_square / static_cast<double>(points - fitted) : 1.0;
  return chi_square_95(static_cast<int>(std::max<std::size_t>(1, fitted))) * std::max(1.0, reduced);
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

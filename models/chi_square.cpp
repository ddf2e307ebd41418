#include "models/chi_square.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sonicsim::models {

double chi_square_wilson_hilferty(double degrees_of_freedom, double z) {
  const double k = degrees_of_freedom;
  const double c = 1.0 - 2.0 / (9.0 * k) + z * std::sqrt(2.0 / (9.0 * k));
  return k * c * c * c;
}

double chi_square_95(int degrees_of_freedom) {
  if (degrees_of_freedom < 1)
    throw std::invalid_argument("chi_square_95: degrees of freedom must be 1 or more");
  // Tables of the chi-square distribution (e.g. NIST/SEMATECH e-Handbook, 1.3.6.7.4), upper 5 %.
  static constexpr double table[] = {3.841,  5.991,  7.815,  9.488,  11.070,
                                     12.592, 14.067, 15.507, 16.919, 18.307};
  if (degrees_of_freedom <= 10) return table[degrees_of_freedom - 1];
  return chi_square_wilson_hilferty(degrees_of_freedom, 1.6448536269514722);
}

double chi_square_999(int degrees_of_freedom) {
  return chi_square_wilson_hilferty(std::max(1, degrees_of_freedom), 3.090232);
}

} // namespace sonicsim::models

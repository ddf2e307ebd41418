#include "models/student_t.hpp"

#include <stdexcept>

namespace sonicsim::models {

double student_t_975(int df) {
  if (df < 1) throw std::invalid_argument("Student t quantile: degrees of freedom must be >= 1");
  static const double table[] = {12.7062, 4.30265, 3.18245, 2.77645, 2.57058};
  if (df <= 5) return table[df - 1];
  const double z = 1.959963985;
  const double z2 = z * z, n = df;
  const double g1 = (z2 + 1.0) * z / 4.0;
  const double g2 = ((5.0 * z2 + 16.0) * z2 + 3.0) * z / 96.0;
  const double g3 = (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) * z / 384.0;
  const double g4 = ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) * z / 92160.0;
  return z + g1 / n + g2 / (n * n) + g3 / (n * n * n) + g4 / (n * n * n * n);
}

} // namespace sonicsim::models

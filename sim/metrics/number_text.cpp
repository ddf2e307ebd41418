#include "sim/metrics/number_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sonicsim {

std::string significant(double value, int digits) {
  char text[64];
  if (!std::isfinite(value) || value == 0.0) {
    std::snprintf(text, sizeof text, "%g", value);
    return text;
  }
  // Decimals so that `digits` digits are shown: 3 for 1.234, 0 for 1234. Beyond 1e15 fixed-point is
  // unreadable.
  const int magnitude = static_cast<int>(std::floor(std::log10(std::abs(value))));
  if (magnitude >= 15) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    return text;
  }
  const int decimals = std::clamp(digits - 1 - magnitude, 0, 9);
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string gbps_text(double bits_per_s) {
  return significant(bits_per_s / 1e9) + " Gb/s";
}

std::string exact_number_text(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

std::string percent_text(double fraction, int digits) {
  if (std::abs(fraction) < 1e-4 && fraction != 0.0) return "<0.01 %";
  return significant(100.0 * fraction, digits) + " %";
}

} // namespace sonicsim

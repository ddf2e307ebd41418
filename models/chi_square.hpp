// Upper quantiles of the chi-square distribution: how large a fit's chi-square may be by chance (the rival
// fits' margin, a fit too poor to stop at). Pure code.
#pragma once

namespace sonicsim::models {

// Wilson and Hilferty's approximation: (chi2 / k)^(1/3) is nearly normal with mean 1 - 2 / (9k) and
// variance 2 / (9k), so the quantile at the standard normal's `z` is k (1 - 2 / (9k) + z sqrt(2 / (9k)))^3.
double chi_square_wilson_hilferty(double degrees_of_freedom, double z);

// The 95 % quantile with `degrees_of_freedom` (exact to 3 decimals up to 10, Wilson-Hilferty beyond, within
// 0.1 % there). Throws std::invalid_argument below 1.
double chi_square_95(int degrees_of_freedom);

// The 99.9 % quantile with `degrees_of_freedom` (at least 1 is used), by Wilson-Hilferty: 11.16 at 1 degree
// of freedom against 10.83 exactly (3 % high, on the side of not restarting a fit), 45.44 at 20
// against 45.31.
double chi_square_999(int degrees_of_freedom);

} // namespace sonicsim::models

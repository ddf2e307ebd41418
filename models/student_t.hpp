// Two-sided 95 % quantile of Student's t distribution, t_{0.975, df}: half-widths of confidence intervals
// from few samples (fits with few points, replications). Pure code.
#pragma once

namespace sonicsim::models {

// Exact table values for df 1..5 (Abramowitz & Stegun Table 26.10); above, the Cornish-Fisher expansion of
// A&S 26.7.5 around the normal quantile 1.959964 (error below 1e-4 from df 6 on). Throws
// std::invalid_argument for df < 1.
double student_t_975(int degrees_of_freedom);

} // namespace sonicsim::models

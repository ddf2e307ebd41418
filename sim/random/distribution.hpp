// Drawing from a DistributionSpec. The transforms from the engine's raw 64-bit numbers are written out here
// rather than taken from <random>'s distributions, whose algorithms differ between standard libraries: the
// same scenario and seed must give byte-identical output everywhere.
#pragma once

#include <cstdint>
#include <random>

#include "sim/random/distribution_spec.hpp"
#include "sim/random/random_engine.hpp"

namespace sonicsim {

// One draw, always >= 0.
// - constant: the value.
// - normal: N(mean, sd) truncated at 0 by resampling a negative draw, up to 64 times; if all are negative
//   (probability <= 2^-64, since the loader requires mean >= 0) the result is 0. With mean >= 2 sd the
//   truncation moves the mean by < 1%.
// - lognormal: parameterised by the mean and sd of the quantity itself: sigma^2 = ln(1 + sd^2/mean^2),
//   mu = ln(mean) - sigma^2/2, so E[X] = mean and SD[X] = sd.
// - exponential: rate 1/mean.
// - uniform: on [min, max).
double sample(const DistributionSpec& spec, RandomEngine& rng);

// A count (inferences per event): one draw rounded to the nearest integer, at least 0.
std::int64_t sample_count(const DistributionSpec& spec, RandomEngine& rng);

// The mean of sample_count's counts, exactly (not the distribution's mean: rounding and the truncation at 0
// move it): the sum over k >= 1 of P(draw >= k - 1/2). What a scenario's count of inferences per event
// means, for checking it against a measured one.
double expected_count(const DistributionSpec& spec);

// A uniform double in [0, 1) from the top 53 bits of one engine output.
double uniform01(RandomEngine& rng);
// A standard normal draw (Box-Muller, consuming two engine outputs and keeping no state between calls).
double standard_normal(RandomEngine& rng);

} // namespace sonicsim

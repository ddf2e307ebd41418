#include "sim/random/distribution.hpp"

#include "sim/random/random_engine.hpp"
#include <algorithm>
#include <cmath>
#include <vector>

namespace sonicsim {

double uniform01(RandomEngine& rng) {
  constexpr double two_to_minus_53 = 1.0 / 9007199254740992.0;
  return static_cast<double>(rng() >> 11) * two_to_minus_53;
}

double standard_normal(RandomEngine& rng) {
  constexpr double two_pi = 6.283185307179586476925;
  const double u1 = 1.0 - uniform01(rng); // in (0, 1]: log(u1) is finite
  const double u2 = uniform01(rng);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(two_pi * u2);
}

double sample(const DistributionSpec& spec, RandomEngine& rng) {
  using Kind = DistributionSpec::Kind;
  switch (spec.kind) {
  case Kind::constant:
    return spec.mean;
  case Kind::normal: {
    constexpr int max_attempts = 64;
    for (int attempt = 0; attempt < max_attempts; ++attempt) {
      const double x = spec.mean + spec.sd * standard_normal(rng);
      if (x >= 0.0) return x;
    }
    return 0.0;
  }
  case Kind::lognormal: {
    if (spec.sd == 0.0) return spec.mean;
    const double sigma2 = std::log1p((spec.sd * spec.sd) / (spec.mean * spec.mean));
    const double mu = std::log(spec.mean) - 0.5 * sigma2;
    return std::exp(mu + std::sqrt(sigma2) * standard_normal(rng));
  }
  case Kind::exponential:
    return -spec.mean * std::log(1.0 - uniform01(rng));
  case Kind::uniform:
    return spec.min + (spec.max - spec.min) * uniform01(rng);
  }
  return spec.mean;
}

std::int64_t sample_count(const DistributionSpec& spec, RandomEngine& rng) {
  // Clamped below 2^62 so that a far tail draw cannot overflow llround (the loader bounds counts far lower).
  return std::max<std::int64_t>(0, std::llround(std::min(sample(spec, rng), 4.6e18)));
}

namespace {

double standard_normal_cdf(double z) {
  return 0.5 * std::erfc(-z / std::sqrt(2.0));
}

// P(one draw of `sample` < x), for x > 0.
double draw_cdf(const DistributionSpec& spec, double x) {
  using Kind = DistributionSpec::Kind;
  switch (spec.kind) {
  case Kind::constant:
    return spec.mean < x ? 1.0 : 0.0;
  case Kind::normal: {
    if (spec.sd <= 0.0) return spec.mean < x ? 1.0 : 0.0;
    // Truncated at 0 by resampling: the normal's distribution above 0, renormalised.
    const double below_zero = standard_normal_cdf(-spec.mean / spec.sd);
    return (standard_normal_cdf((x - spec.mean) / spec.sd) - below_zero) / (1.0 - below_zero);
  }
  case Kind::lognormal: {
    if (spec.sd <= 0.0) return spec.mean < x ? 1.0 : 0.0;
    const double sigma2 = std::log1p(spec.sd * spec.sd / (spec.mean * spec.mean));
    return standard_normal_cdf((std::log(x) - (std::log(spec.mean) - sigma2 / 2.0)) / std::sqrt(sigma2));
  }
  case Kind::exponential:
    return spec.mean > 0.0 ? 1.0 - std::exp(-x / spec.mean) : 1.0;
  case Kind::uniform:
    if (spec.max <= spec.min) return spec.min < x ? 1.0 : 0.0;
    return std::clamp((x - spec.min) / (spec.max - spec.min), 0.0, 1.0);
  }
  return 1.0;
}

// expected_count sums one term per count up to the plausible maximum (~90,000 erfc for ProtoDUNE's 55,000 +-
// 5,500 patches), and a plan's analysis asks it again for every layout it weighs (the same workload): so the
// answers are kept per thread, by the spec's fields, exactly as computed.
struct KnownCount {
  DistributionSpec spec;
  double mean;
};
bool same_spec(const DistributionSpec& a, const DistributionSpec& b) {
  return a.kind == b.kind && a.mean == b.mean && a.sd == b.sd && a.min == b.min && a.max == b.max;
}

double summed_expected_count(const DistributionSpec& spec) {
  double mean = 0.0;
  const double last = std::min(spec.plausible_max() + 2.0, 1e7);
  for (double k = 1.0; k <= last; k += 1.0) {
    const double at_least = 1.0 - draw_cdf(spec, k - 0.5);
    if (at_least <= 0.0) break;
    mean += at_least;
  }
  return mean;
}
} // namespace

double expected_count(const DistributionSpec& spec) {
  constexpr std::size_t kept = 16;
  thread_local std::vector<KnownCount> known;
  for (const auto& k : known)
    if (same_spec(k.spec, spec)) return k.mean;
  const double mean = summed_expected_count(spec);
  if (known.size() == kept) known.erase(known.begin());
  known.push_back({spec, mean});
  return mean;
}

} // namespace sonicsim

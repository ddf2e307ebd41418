// Sampling a DistributionSpec: the moments match the spec, draws are never negative, and a seed fixes the
// draws.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "sim/random/distribution.hpp"
#include "sim/random/random_engine.hpp"

using namespace sonicsim;

namespace {

struct Moments {
  double mean = 0.0;
  double sd = 0.0;
  double min = 0.0;
};

Moments moments(const DistributionSpec& spec, int n, std::uint64_t seed) {
  RandomEngine rng(seed);
  double sum = 0.0, sum2 = 0.0, lowest = INFINITY;
  for (int i = 0; i < n; ++i) {
    const double x = sample(spec, rng);
    sum += x;
    sum2 += x * x;
    lowest = std::min(lowest, x);
  }
  const double mean = sum / n;
  return {mean, std::sqrt(sum2 / n - mean * mean), lowest};
}

DistributionSpec spec(DistributionSpec::Kind kind, double mean, double sd, double min = 0, double max = 0) {
  DistributionSpec s;
  s.kind = kind;
  s.mean = mean;
  s.sd = sd;
  s.min = min;
  s.max = max;
  return s;
}

constexpr int n = 200000;

} // namespace

TEST_CASE("scenario distribution: lognormal is parameterised by the mean and sd of the quantity itself") {
  // mean 110 s, sd 20 s. The standard error of the sample mean is sd / sqrt(n) = 20 / sqrt(200000) = 0.045 s,
  // 0.04% of the mean: a 1% tolerance is > 20 standard errors, so it fails only if the parameterisation is
  // wrong (e.g. exp(mu) with mu = ln(mean) would give a mean 1.6% high: sigma^2/2 = 0.0162).
  const auto m = moments(spec(DistributionSpec::Kind::lognormal, 110.0, 20.0), n, 7);
  CHECK(m.mean == doctest::Approx(110.0).epsilon(0.01));
  // The sd's own standard error is larger (heavy right tail); 3% is still many standard errors.
  CHECK(m.sd == doctest::Approx(20.0).epsilon(0.03));
  CHECK(m.min > 0.0);
}

TEST_CASE("scenario distribution: normal, exponential, uniform and constant match their moments") {
  // Normal 55000 +- 5500 (the EmTrkMichelId inference count): 10 sd above 0, so truncation never acts.
  // Standard error of the mean 5500 / sqrt(2e5) = 12, i.e. 0.02%; 0.5% tolerance.
  const auto normal = moments(spec(DistributionSpec::Kind::normal, 55000, 5500), n, 1);
  CHECK(normal.mean == doctest::Approx(55000).epsilon(0.005));
  CHECK(normal.sd == doctest::Approx(5500).epsilon(0.02));
  // Exponential mean 2 s: sd = mean, standard error 2 / sqrt(2e5) = 0.0045 s = 0.2%; 1% tolerance.
  const auto expo = moments(spec(DistributionSpec::Kind::exponential, 2.0, 0), n, 2);
  CHECK(expo.mean == doctest::Approx(2.0).epsilon(0.01));
  CHECK(expo.sd == doctest::Approx(2.0).epsilon(0.02));
  // Uniform [5, 9]: mean 7, sd 4 / sqrt(12) = 1.155; standard error 0.0026.
  const auto uniform = moments(spec(DistributionSpec::Kind::uniform, 0, 0, 5.0, 9.0), n, 3);
  CHECK(uniform.mean == doctest::Approx(7.0).epsilon(0.005));
  CHECK(uniform.sd == doctest::Approx(4.0 / std::sqrt(12.0)).epsilon(0.01));
  CHECK(uniform.min >= 5.0);
  RandomEngine rng(4);
  CHECK(sample(spec(DistributionSpec::Kind::constant, 110.0, 0), rng) == 110.0);
  CHECK(sample(spec(DistributionSpec::Kind::lognormal, 3.0, 0), rng) == 3.0); // sd 0 degenerates to the mean
}

TEST_CASE("scenario distribution: a normal with mass below 0 is truncated, never negative") {
  // mean 1, sd 2: 31% of the untruncated draws are negative; all must be resampled away.
  const auto m = moments(spec(DistributionSpec::Kind::normal, 1.0, 2.0), 20000, 5);
  CHECK(m.min >= 0.0);
  CHECK(m.mean > 1.0); // cutting off the left tail raises the mean
}

TEST_CASE("scenario distribution: the same seed gives the same draws, another seed different ones") {
  const auto s = spec(DistributionSpec::Kind::lognormal, 110.0, 20.0);
  RandomEngine a(123), b(123), c(124);
  std::vector<double> xa, xb, xc;
  for (int i = 0; i < 100; ++i) {
    xa.push_back(sample(s, a));
    xb.push_back(sample(s, b));
    xc.push_back(sample(s, c));
  }
  CHECK(xa == xb);
  CHECK(xa != xc);
  // The transforms are our own (not <random>'s distributions), and the engine's output is fixed by PCG64's
  // definition, so these draws are the same with any standard library: pcg-cpp's reference output for
  // pcg64(42, 54) (its test-high/expected/check-pcg64.out) begins 0x86b1da1d72062b68, 0x1304aa46c9853d39.
  RandomEngine reference(42u, 54u);
  CHECK(reference() == 0x86b1da1d72062b68ULL);
  CHECK(uniform01(reference) ==
        doctest::Approx(static_cast<double>(0x1304aa46c9853d39ULL >> 11) / 9007199254740992.0));
}

TEST_CASE("expected_count: the answers kept for specs asked again are the same, and a changed field is asked "
          "anew") {
  using sonicsim::DistributionSpec;
  using Kind = DistributionSpec::Kind;
  // Kept per thread by the spec's fields (a plan's analysis asks the same workload's count for every layout).
  DistributionSpec exponential{Kind::exponential, 0.4, 0, 0, 0};
  const double first = sonicsim::expected_count(exponential);
  CHECK(sonicsim::expected_count(exponential) == first);
  CHECK(first == doctest::Approx(std::exp(-0.5 / 0.4) / (1.0 - std::exp(-1.0 / 0.4))));
  // Another mean is another answer, not the one kept: e^(-1/2m) / (1 - e^(-1/m)) at m = 0.8.
  exponential.mean = 0.8;
  CHECK(sonicsim::expected_count(exponential) ==
        doctest::Approx(std::exp(-0.5 / 0.8) / (1.0 - std::exp(-1.0 / 0.8))));
  // More specs than are kept: the first is pushed out and computed again, to the same value.
  for (int k = 1; k <= 20; ++k)
    sonicsim::expected_count(DistributionSpec{Kind::constant, static_cast<double>(k), 0, 0, 0});
  exponential.mean = 0.4;
  CHECK(sonicsim::expected_count(exponential) == first);
  CHECK(sonicsim::expected_count(DistributionSpec{Kind::constant, 7.0, 0, 0, 0}) == 7.0);
}

TEST_CASE("expected_count: the mean of the drawn counts, rounded and never negative, by hand") {
  using sonicsim::DistributionSpec;
  using Kind = DistributionSpec::Kind;
  DistributionSpec constant{Kind::constant, 2.4, 0, 0, 0};
  CHECK(sonicsim::expected_count(constant) == 2.0); // 2.4 rounds to 2
  // uniform [0, 0.674): a count of 1 when the draw is >= 0.5, with probability 0.174 / 0.674.
  DistributionSpec uniform{Kind::uniform, 0, 0, 0, 0.674};
  CHECK(sonicsim::expected_count(uniform) == doctest::Approx(0.174 / 0.674));
  // exponential, mean m: the sum over k of e^-(k - 1/2)/m = e^(-1/2m) / (1 - e^(-1/m)).
  DistributionSpec exponential{Kind::exponential, 0.4, 0, 0, 0};
  CHECK(sonicsim::expected_count(exponential) ==
        doctest::Approx(std::exp(-0.5 / 0.4) / (1.0 - std::exp(-1.0 / 0.4))));
  // A narrow normal: its mean. A wide one at 3.43, sd 2, truncated at 0 (resampled) and rounded: 3.617, the
  // 3.61 AK4 jets of the CMS scenarios (the truncation adds sd x phi(z) / Phi(z) = 0.19 at z = 1.715, and the
  // draws below 0.5 that round to 0 take back 0.01).
  DistributionSpec narrow{Kind::normal, 3.0, 0.01, 0, 0};
  CHECK(sonicsim::expected_count(narrow) == doctest::Approx(3.0));
  DistributionSpec wide{Kind::normal, 3.43, 2.0, 0, 0};
  CHECK(sonicsim::expected_count(wide) == doctest::Approx(3.617).epsilon(0.001));
  // The drawn counts agree: 200,000 draws' mean within 4 standard errors (sd of a count ~1.9).
  RandomEngine rng(11);
  double sum = 0.0;
  for (int i = 0; i < 200'000; ++i)
    sum += static_cast<double>(sonicsim::sample_count(wide, rng));
  CHECK(sum / 200'000 ==
        doctest::Approx(sonicsim::expected_count(wide)).epsilon(4 * 1.9 / std::sqrt(2e5) / 3.6));
}

// What a random quantity of a scenario is: its kind and parameters (drawing from it: distribution.hpp). Below
// the scenario language, so the random layer does not depend on it.
#pragma once

namespace sonicsim {

// A random quantity. Durations are in seconds, counts are dimensionless.
struct DistributionSpec {
  enum class Kind { constant, normal, lognormal, exponential, uniform };
  Kind kind = Kind::constant;
  double mean = 0.0; // constant: the value; normal/lognormal/exponential: the mean
  double sd = 0.0;   // normal/lognormal: standard deviation of the quantity itself (not of its log)
  double min = 0.0;  // uniform: lower bound
  double max = 0.0;  // uniform: upper bound
  // Expected value, used by the analytic models.
  double expected() const { return kind == Kind::uniform ? 0.5 * (min + max) : mean; }
  // A value no draw exceeds in practice: mean + 10 sd (normal, lognormal: probability below 1e-20 for the
  // normal, and the lognormal's tail at sd <= 1000 mean is covered by the bound on counts), 40 x mean
  // (exponential: e^-40), max (uniform). For sizing checks, not for the model.
  double plausible_max() const {
    switch (kind) {
    case Kind::constant:
      return mean;
    case Kind::normal:
    case Kind::lognormal:
      return mean + 10.0 * sd;
    case Kind::exponential:
      return 40.0 * mean;
    case Kind::uniform:
      return max;
    }
    return mean;
  }
};

} // namespace sonicsim

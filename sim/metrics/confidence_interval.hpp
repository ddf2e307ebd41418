// A figure over independent replications: its mean and the half-width of its 95 % confidence interval
// (Student t with n - 1 degrees of freedom), the way every replicated result is reported. Pure code.
#pragma once

#include <vector>

namespace sonicsim {

struct ConfidenceInterval {
  double mean = 0.0;
  double half_width = 0.0; // 95 %; 0 with one replication (no interval: see `n`)
  double sd = 0.0;         // sample standard deviation of the replications
  int n = 0;               // replications
  double low() const { return mean - half_width; }
  double high() const { return mean + half_width; }
  bool has_interval() const { return n >= 2; }
};

// Mean and 95 % interval of the values (one per replication). An empty list gives n = 0.
ConfidenceInterval confidence_interval_95(const std::vector<double>& values);

} // namespace sonicsim

#include "sim/metrics/histogram_peaks.hpp"

#include <algorithm>
#include <cmath>

namespace sonicsim {

namespace {

// The Gaussian kernel's weights at offsets -reach .. reach bins (reach = 4 sigma).
std::vector<double> gaussian_kernel(double sigma_bins) {
  const auto reach = static_cast<long>(std::ceil(4.0 * sigma_bins));
  std::vector<double> kernel;
  for (long k = -reach; k <= reach; ++k)
    kernel.push_back(
        std::exp(-0.5 * (static_cast<double>(k) / sigma_bins) * (static_cast<double>(k) / sigma_bins)));
  return kernel;
}

// Each bin's weighted sum of counts (weights to the power `power`) over the kernel's weight sum to the same
// power, the kernel renormalised at the edges: power 1 smooths, power 2 gives the smoothed count's variance
// when each count is Poisson (its variance is the count).
std::vector<double> kernel_sums(const std::vector<double>& counts, double sigma_bins, int power) {
  const std::vector<double> kernel = gaussian_kernel(sigma_bins);
  const auto reach = static_cast<long>(kernel.size() / 2);
  const auto n = static_cast<long>(counts.size());
  std::vector<double> out(counts.size(), 0.0);
  for (long i = 0; i < n; ++i) {
    double sum = 0.0, weight = 0.0;
    for (long k = -reach; k <= reach; ++k) {
      const long j = i + k;
      if (j < 0 || j >= n) continue;
      const double w = kernel[static_cast<std::size_t>(k + reach)];
      sum += (power == 2 ? w * w : w) * counts[static_cast<std::size_t>(j)];
      weight += w;
    }
    out[static_cast<std::size_t>(i)] = weight > 0 ? sum / (power == 2 ? weight * weight : weight) : 0.0;
  }
  return out;
}

} // namespace

std::vector<double> smooth_counts(const std::vector<double>& counts, double sigma_bins) {
  if (sigma_bins <= 0.0) return counts;
  return kernel_sums(counts, sigma_bins, 1);
}

std::vector<HistogramPeak> find_peaks(const std::vector<double>& counts, double bin_width_s,
                                      const PeakRule& rule) {
  const std::vector<double> s = smooth_counts(counts, rule.smoothing_sigma_bins);
  // Poisson counts: the smoothed count's variance (a count, without smoothing).
  const std::vector<double> variance =
      rule.smoothing_sigma_bins > 0.0 ? kernel_sums(counts, rule.smoothing_sigma_bins, 2) : counts;
  if (s.empty()) return {};
  const double highest = *std::max_element(s.begin(), s.end());
  if (highest <= 0.0) return {};
  // Local maxima (a plateau counts once, at its first bin) above the height threshold.
  std::vector<std::size_t> maxima;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const double left = i > 0 ? s[i - 1] : -1.0;
    std::size_t j = i;
    while (j + 1 < s.size() && s[j + 1] == s[i])
      ++j;
    const double right = j + 1 < s.size() ? s[j + 1] : -1.0;
    if (s[i] > left && s[i] > right && s[i] >= rule.min_height_fraction * highest) maxima.push_back(i);
    i = j;
  }
  // Merge neighbours not separated by a deep enough valley, keeping the higher maximum.
  std::vector<std::size_t> kept;
  for (const std::size_t m : maxima) {
    if (!kept.empty()) {
      const std::size_t previous = kept.back();
      const auto lowest =
          std::min_element(s.begin() + static_cast<long>(previous), s.begin() + static_cast<long>(m) + 1);
      const std::size_t lower = s[m] < s[previous] ? m : previous;
      const double dip = s[lower] - *lowest;
      const double dip_se =
          std::sqrt(variance[lower] + variance[static_cast<std::size_t>(lowest - s.begin())]);
      if (*lowest >= rule.valley_fraction * s[lower] || dip <= rule.min_dip_sigma * dip_se) {
        if (s[m] > s[previous]) kept.back() = m;
        continue;
      }
    }
    kept.push_back(m);
  }
  std::vector<HistogramPeak> peaks;
  for (const std::size_t i : kept)
    peaks.push_back({(static_cast<double>(i) + 0.5) * bin_width_s, s[i] / highest});
  return peaks;
}

} // namespace sonicsim

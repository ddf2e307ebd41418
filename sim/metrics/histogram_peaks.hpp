// Peaks of a histogram of per-event processing times: how a campaign's "double peak" (the 2023 ProtoDUNE
// talk, 2022 results: a first peak at the unsaturated time and a second one when the site switch saturates)
// is told from one peak with a tail. Pure code.
//
// The rule: the histogram (fixed bins) is smoothed with a Gaussian kernel of smoothing_sigma_bins; a peak is
// a local maximum of the smoothed counts at least min_height_fraction of the highest one. Two neighbouring
// peaks are separate only if the smoothed counts between them fall below valley_fraction of the lower peak,
// and by more than min_dip_sigma standard errors of the two smoothed counts (each bin's count taken as
// Poisson); otherwise they are one peak (the higher one is kept). So a shoulder, or a tail made bumpy by the
// sample's noise, is not a second peak. Why 80 % and not a deeper valley: the 2022 campaign's two regimes
// (unsaturated ~22 s, saturated ~52 s, 200-1,000 events per bin) have a valley at 30-52 % of the lower peak
// from seed to seed, about 30 standard errors deep; at 50 % the reported count was a coin toss.
#pragma once

#include <cstdint>
#include <vector>

namespace sonicsim {

struct PeakRule {
  double smoothing_sigma_bins = 3.0;
  double min_height_fraction = 0.10;
  double valley_fraction = 0.8;
  double min_dip_sigma = 3.0;
};

struct HistogramPeak {
  double position_s = 0.0;      // centre of the peak's bin
  double height_fraction = 0.0; // smoothed height relative to the highest peak
};

// Gaussian smoothing (kernel cut at 4 sigma, renormalised at the edges so counts near 0 are not pulled down).
std::vector<double> smooth_counts(const std::vector<double>& counts, double sigma_bins);

// Peaks in increasing position; bins start at 0 and are bin_width_s wide.
std::vector<HistogramPeak> find_peaks(const std::vector<double>& counts, double bin_width_s,
                                      const PeakRule& rule = PeakRule{});

} // namespace sonicsim

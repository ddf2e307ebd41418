// The model's own error, estimated from the released data (model_form: leave_one_series_out in a joint
// spec): each series predicted by a fit to the others, and how far it lands from its measurement; then each
// prediction's spread over those fits, added to its interval. The seeds and the fitted covariance say how
// precisely the parameters are known if the model is right; this says how wrong the model is where it was
// not fitted, which is what a prediction of an unmeasured result rests on.
#pragma once

#include "sim/calibration/joint_fit.hpp"
#include "sim/calibration/joint_prediction.hpp"
#include "sim/calibration/joint_spec.hpp"

#include <functional>
#include <string>
#include <vector>

namespace sonicsim {

struct HeldOutPoint {
  std::string series;
  double x = 0.0, measured = 0.0, sd = 0.0, predicted = 0.0;
  double relative_error() const { return (predicted - measured) / measured; }
};

struct ModelForm {
  std::vector<std::string> left_out;       // the series each fit left out
  std::vector<std::vector<double>> values; // each fit's values of every parameter (the others kept as fitted)
  // Each fit's covariance over every parameter (k x k, row-major; 0 for one it did not fit); empty when read
  // from a calibration.json written before they were kept.
  std::vector<std::vector<double>> covariances;
  std::vector<HeldOutPoint> held_out; // every point, predicted by the fit that left its series out
  double relative_rms = 0.0;          // of the held-out points' relative errors
  std::size_t covered = 0;            // held-out points within their 95 % interval (see coverage)
  // A crossing or a gain rests on a SONIC figure over its direct level, not on either alone: each held-out
  // point of a series with a `reference` over that reference's held-out point (each from the fit that left
  // its own series out), the measured ratio's sd from both sds. Empty where no series has a reference.
  std::vector<HeldOutPoint> ratios;
  double ratio_relative_rms = 0.0;
  std::size_t ratio_covered = 0;
};

// The held-out summary from `held_out`: the relative RMS and coverage of the points, and the ratios to the
// references with theirs. leave_one_series_out ends with it; a calibration.json read back calls it again.
void summarise_held_out(const JointSpec& spec, ModelForm& form);

// Fits the spec once per series without it, each from the full fit's values (`fitted`), and predicts the
// left-out series. A parameter that acts only on the left-out series keeps its fitted value, as does one
// that `free` (when given) excludes: a value the calibration holds (not adopted) is held here too.
// `on_held_out` hears of each point as its series' fit ends.
ModelForm leave_one_series_out(const JointSpec& spec, const JointSimulator& simulator,
                               const std::vector<double>& fitted,
                               const std::function<void(const HeldOutPoint&)>& on_held_out = {},
                               const std::vector<bool>& free = {});

// Two terms join the prediction's interval, in quadrature:
// - the prediction's spread over the leave-one-out fits (one seed each): its jackknife standard error, times
//   Student's t for the fits less one (how far the parameters move without a series);
// - the model's misfit: the held-out points land a relative RMS off their measurements, so the simulated
//   figure may be off by 1.96 x that (the 95 % interval whose coverage count_covered reports). A figure
//   moves by that share of itself. A gain or a crossing takes the held-out ratios' RMS instead where the
//   spec has them (a SONIC figure over its direct level: the direct level's own error is in it): a gain
//   moves by that share of 1 + the gain; a crossing moves to where the curve so moved crosses the direct
//   level, from the prediction's own runs at `values` (the adopted values). A fit without its series can
//   leave a parameter where the full fit put it (nothing else moves it); the misfit term does not rest on the
//   fits moving.
// None when a fit, or the moved curve, gives no value (a crossing beyond the sweep): the interval is then not
// bounded by the data, and `result.problem` says so.
void add_model_form(const JointSpec& spec, const JointPrediction& prediction, const JointSimulator& simulator,
                    const ModelForm& model_form, const std::vector<double>& values, PredictionResult& result);

} // namespace sonicsim

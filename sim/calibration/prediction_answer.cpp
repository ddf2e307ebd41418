#include "sim/calibration/prediction_answer.hpp"

#include "models/student_t.hpp"
#include "sim/metrics/number_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace sonicsim {
namespace {

constexpr double open = std::numeric_limits<double>::infinity();
using Kind = AnswerAssumption::Kind;

// What an interval keeps: one reading only, one held parameter at one of its bounds, one fit only (the
// adopted one: none inside), and a statistical part left out.
struct Pin {
  std::optional<std::size_t> reading;
  std::optional<std::pair<std::string, double>> held;
  std::optional<std::optional<std::size_t>> fit; // a rival's start, or nullopt inside: the adopted fit
  std::optional<Kind> dropped_part;
};

// The statistical parts' 95 % half-widths of one reading: seeds (Student's t over its replications),
// calibration (normal), model form (Student's t over the leave-one-out fits).
struct Parts {
  double seeds = 0.0, calibration = 0.0, model_form = 0.0;
};

Parts parts_of(const PredictionResult& p) {
  Parts parts;
  parts.seeds = p.replications > 1 ? models::student_t_975(p.replications - 1) * p.seed_se : 0.0;
  parts.calibration = 1.96 * p.parameter_se;
  const int fits = static_cast<int>(p.model_form_values.size());
  parts.model_form = fits > 1 ? models::student_t_975(fits - 1) * p.model_form_se : 0.0;
  return parts;
}

// The interval's sides below and above a point of this reading (infinite: open), the way
// PredictionResult::interval() makes them, without `dropped` where one is given.
std::pair<double, double> sides(const PredictionResult& p, std::optional<Kind> dropped) {
  if (!p.value) return {open, open};
  Parts parts = parts_of(p);
  if (dropped == Kind::seeds) parts.seeds = 0.0;
  if (dropped == Kind::calibration) parts.calibration = 0.0;
  if (dropped == Kind::model_form) parts.model_form = 0.0;
  const double bounded = std::hypot(std::hypot(parts.seeds, parts.calibration), parts.model_form);
  if (!std::isfinite(bounded)) return {open, open};
  if (dropped == Kind::model_misfit) return {bounded, bounded};
  if (std::isfinite(p.model_error_half_width)) {
    const double half = std::hypot(bounded, p.model_error_half_width);
    return {half, half};
  }
  // An open misfit: only a crossing that leaves the sweep on one side keeps the other side bounded.
  if (!(p.crossing_curve_lower || p.crossing_curve_higher)) return {open, open};
  return {p.crossing_curve_lower ? std::hypot(bounded, *p.value - *p.crossing_curve_lower) : open,
          p.crossing_curve_higher ? std::hypot(bounded, *p.crossing_curve_higher - *p.value) : open};
}

// The interval of one reading over the points the pin keeps: the adopted value, the held parameters' bounds
// and the rival fits, from the lowest less the lower side to the highest plus the upper side.
std::pair<double, double> reading_interval(const PredictionResult& p, const Pin& pin) {
  if (!p.value) return {-open, open};
  std::vector<std::optional<double>> kept;
  // A rival pinned that this reading was not run at (a spec whose readings differ in rivals): its adopted
  // fit.
  const bool has_rival =
      pin.fit && pin.fit->has_value() &&
      std::any_of(p.rivals.begin(), p.rivals.end(), [&pin](const auto& r) { return r.start == **pin.fit; });
  const bool adopted_fit = !pin.fit || !pin.fit->has_value() || !has_rival;
  bool value_kept = adopted_fit;
  if (pin.held)
    for (const auto& h : p.held)
      if (h.key == pin.held->first && h.at_adopted && h.value != pin.held->second) value_kept = false;
  if (value_kept) kept.push_back(p.value);
  for (const auto& h : p.held) {
    if (h.at_adopted || !adopted_fit) continue; // the value's own runs, or another fit than the adopted
    if (pin.held && h.key == pin.held->first && h.value != pin.held->second) continue;
    kept.push_back(h.prediction);
  }
  for (const auto& r : p.rivals)
    if (!pin.fit || (has_rival && **pin.fit == r.start)) kept.push_back(r.prediction);
  double low = open, high = -open;
  for (const auto& x : kept) {
    if (!x) return {-open, open}; // no crossing within the sweep there: the data do not bound it
    low = std::min(low, *x), high = std::max(high, *x);
  }
  const auto [below, above] = sides(p, pin.dropped_part);
  return {low - below, high + above};
}

std::pair<double, double> pinned_interval(const std::vector<const PredictionResult*>& readings,
                                          const Pin& pin) {
  std::pair<double, double> envelope{open, -open};
  for (std::size_t r = 0; r < readings.size(); ++r) {
    if (pin.reading && *pin.reading != r) continue;
    const auto [low, high] = reading_interval(*readings[r], pin);
    envelope = {std::min(envelope.first, low), std::max(envelope.second, high)};
  }
  return envelope;
}

std::string text(double x) {
  return significant(x, 4);
}

// A bound as the spec writes it: 5, 57, 0.25 (no trailing zeros).
std::string bound_text(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", x);
  return buffer;
}

// The assumption's ends from candidate (label, answer) pairs: the lowest and the highest answer; a candidate
// without an answer makes both ends open.
void take_ends(AnswerAssumption& a, const std::vector<std::pair<std::string, std::optional<double>>>& at,
               std::size_t& low_index, std::size_t& high_index) {
  a.at_low = open, a.at_high = -open;
  for (std::size_t i = 0; i < at.size(); ++i) {
    if (!at[i].second) {
      a.at_low = -open, a.at_high = open, a.low_end = a.high_end = at[i].first + " (no value)";
      low_index = high_index = i;
      return;
    }
    if (*at[i].second < a.at_low) a.at_low = *at[i].second, a.low_end = at[i].first, low_index = i;
    if (*at[i].second > a.at_high) a.at_high = *at[i].second, a.high_end = at[i].first, high_index = i;
  }
}

AnswerAssumption statistical(const PredictionResult& front,
                             const std::vector<const PredictionResult*>& readings, Kind kind, double below,
                             double above, std::string name, std::string pinned_by) {
  AnswerAssumption a;
  a.kind = kind;
  a.name = std::move(name);
  a.at_low = *front.value - below, a.at_high = *front.value + above;
  a.low_end = "its lower 95 % end", a.high_end = "its upper 95 % end";
  Pin pin;
  pin.dropped_part = kind;
  a.pinned_low = a.pinned_high = pinned_interval(readings, pin);
  a.pinned_by = std::move(pinned_by);
  return a;
}

std::vector<AnswerAssumption> statistical_parts(const PredictionResult& front,
                                                const std::vector<const PredictionResult*>& readings) {
  std::vector<AnswerAssumption> out;
  const Parts parts = parts_of(front);
  if (front.model_error_half_width != 0.0 || front.crossing_curve_lower || front.crossing_curve_higher) {
    double below = front.model_error_half_width, above = front.model_error_half_width;
    if (front.crossing_curve_lower || front.crossing_curve_higher || !std::isfinite(below)) {
      below = front.crossing_curve_lower ? *front.value - *front.crossing_curve_lower : open;
      above = front.crossing_curve_higher ? *front.crossing_curve_higher - *front.value : open;
    }
    out.push_back(statistical(
        front, readings, Kind::model_misfit, std::max(below, 0.0), std::max(above, 0.0),
        "the model's misfit where it was not fitted: " + text(100.0 * front.model_error_relative) + " % of " +
            (front.model_error_on_ratio ? "the ratio to direct inference" : "the figure") +
            " (1.96 x the held-out RMS)",
        "a released scan of this very setup, fitted with the rest: its own points replace the held-out "
        "error"));
  }
  out.push_back(statistical(front, readings, Kind::calibration, parts.calibration, parts.calibration,
                            "the fitted values' uncertainty (the fit's covariance)",
                            "more measured points on the fitted series"));
  if (!front.model_form_values.empty())
    out.push_back(statistical(front, readings, Kind::model_form, parts.model_form, parts.model_form,
                              "the model form (the leave-one-series-out fits' spread)",
                              "another released series of a different setup"));
  out.push_back(statistical(front, readings, Kind::seeds, parts.seeds, parts.seeds,
                            "the seeds (" + std::to_string(front.replications) + " replications)",
                            "more replications (no measurement)"));
  return out;
}

} // namespace

const char* kind_name(Kind kind) {
  switch (kind) {
  case Kind::reading:
    return "reading";
  case Kind::held:
    return "held";
  case Kind::rival_fits:
    return "rival_fits";
  case Kind::model_misfit:
    return "model_misfit";
  case Kind::calibration:
    return "calibration";
  case Kind::model_form:
    return "model_form";
  case Kind::seeds:
    return "seeds";
  }
  return "?";
}

// A value held at its bounds (not placed by the data) or an unknown's range: the prediction at each end.
AnswerAssumption held_assumption(const JointSpec& spec, const PredictionResult& front,
                                 const std::vector<const PredictionResult*>& readings,
                                 const std::string& key) {
  AnswerAssumption a;
  a.kind = Kind::held;
  std::string unit;
  a.name = key + " (not placed by the data: its bounds)";
  for (const auto& parameter : spec.parameters)
    if (parameter.fit.key == key) unit = parameter.fit.unit, a.pinned_by = parameter.pinned_by;
  for (const auto& unknown : spec.unknowns)
    if (unknown.key == key) {
      unit = unknown.unit, a.pinned_by = unknown.pinned_by;
      a.name = key + " (no released series measures it: its range from released facts)";
    }
  std::vector<std::pair<std::string, std::optional<double>>> at;
  std::vector<double> bounds;
  for (const auto& h : front.held)
    if (h.key == key)
      at.emplace_back(bound_text(h.value) + " " + unit, h.prediction), bounds.push_back(h.value);
  std::size_t low = 0, high = 0;
  take_ends(a, at, low, high);
  a.pinned_low = pinned_interval(readings, Pin{{}, std::pair{key, bounds[low]}, {}, {}});
  a.pinned_high = pinned_interval(readings, Pin{{}, std::pair{key, bounds[high]}, {}, {}});
  return a;
}

PredictionAnswer answer_of(const JointSpec& spec, const std::vector<const PredictionResult*>& readings) {
  const PredictionResult& front = *readings.front();
  const auto spec_of = [&spec](const std::string& id) -> const JointPrediction* {
    for (const auto& p : spec.predictions)
      if (p.id == id) return &p;
    return nullptr;
  };
  PredictionAnswer answer;
  answer.id = front.id, answer.title = front.title, answer.value = front.value,
  answer.problem = front.problem;
  answer.interval95 = reading_envelope(readings);
  for (const PredictionResult* reading : readings)
    answer.readings.push_back(reading->id);
  for (const PredictionResult* reading : readings)
    for (const auto& warning : reading->warnings) {
      const JointPrediction* p = spec_of(reading->id);
      const std::string name = p && !p->assumes.empty() ? p->assumes : reading->id;
      answer.warnings.push_back(reading == &front ? warning : "with " + name + ": " + warning);
    }
  if (!front.value) return answer;
  std::vector<AnswerAssumption>& ranked = answer.assumptions;
  std::size_t low = 0, high = 0;
  if (readings.size() > 1) {
    AnswerAssumption a;
    a.kind = Kind::reading;
    std::vector<std::pair<std::string, std::optional<double>>> at;
    for (const PredictionResult* reading : readings) {
      const JointPrediction* p = spec_of(reading->id);
      at.emplace_back(p && !p->assumes.empty() ? p->assumes : reading->id, reading->value);
      a.name += (a.name.empty() ? "" : " | ") + at.back().first;
    }
    a.name = "which reading holds: " + a.name;
    take_ends(a, at, low, high);
    a.pinned_low = pinned_interval(readings, Pin{low, {}, {}, {}});
    a.pinned_high = pinned_interval(readings, Pin{high, {}, {}, {}});
    if (const JointPrediction* p = spec_of(front.id)) a.pinned_by = p->pinned_by;
    ranked.push_back(a);
  }
  std::vector<std::string> held_keys;
  for (const auto& h : front.held)
    if (std::find(held_keys.begin(), held_keys.end(), h.key) == held_keys.end()) held_keys.push_back(h.key);
  for (const auto& key : held_keys)
    ranked.push_back(held_assumption(spec, front, readings, key));
  if (!front.rivals.empty()) {
    AnswerAssumption a;
    a.kind = Kind::rival_fits;
    a.name = "which fit holds: the adopted one or a rival the data cannot tell from it";
    std::vector<std::pair<std::string, std::optional<double>>> at{{"the adopted fit", front.value}};
    std::vector<std::optional<std::size_t>> fits{std::nullopt};
    for (const auto& r : front.rivals) {
      at.emplace_back("start " + std::to_string(r.start + 1) + "'s fit", r.prediction);
      fits.emplace_back(r.start);
    }
    take_ends(a, at, low, high);
    a.pinned_low = pinned_interval(readings, Pin{{}, {}, fits[low], {}});
    a.pinned_high = pinned_interval(readings, Pin{{}, {}, fits[high], {}});
    a.pinned_by = spec.rival_fits_pinned_by;
    ranked.push_back(a);
  }
  for (auto& a : statistical_parts(front, readings))
    ranked.push_back(std::move(a));
  for (auto& a : ranked)
    a.swing = a.at_high - a.at_low;
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const AnswerAssumption& x, const AnswerAssumption& y) { return x.swing > y.swing; });
  return answer;
}

std::vector<PredictionAnswer> answers_of(const JointSpec& spec,
                                         const std::vector<PredictionResult>& results) {
  std::vector<PredictionAnswer> answers;
  for (std::size_t i = 0; i < results.size() && i < spec.predictions.size(); ++i) {
    if (!spec.predictions[i].reading_of.empty()) continue;
    std::vector<const PredictionResult*> group{&results[i]};
    for (std::size_t j = i + 1; j < results.size() && j < spec.predictions.size(); ++j)
      if (spec.predictions[j].reading_of == spec.predictions[i].id) group.push_back(&results[j]);
    answers.push_back(answer_of(spec, group));
  }
  return answers;
}

} // namespace sonicsim

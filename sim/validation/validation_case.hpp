// A validation case: one measured number (or curve) from a source, the scenario and observable that reproduce
// it, and the tolerance the source's uncertainty justifies. Cases live in validation/cases/*.yaml, one per
// file.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

struct RunSpec {
  std::string scenario_path;          // resolved path of the scenario file
  std::vector<std::string> variants;  // of the scenario (its variants:), applied before the overrides
  int replication = 0;                // 0: the scenario's seed; r > 0: replication_seed(seed, r)
  std::vector<std::string> overrides; // --set expressions
  // Where each override written in the case file stands (line, column; 1-based), so that an error in one is
  // reported at the case file, not as a --set argument. Overrides the runner adds (sweep points) have none.
  std::vector<std::pair<int, int>> override_positions;
  // A curve's point: the relative distance from the measured value its verdict allows (2 sd / value), which
  // sets the precision its run is held to (case_run_precision).
  std::optional<double> point_tolerance;
};

struct CurveDataset {
  std::string file;   // CSV, resolved path
  std::string series; // value of the `series` column to keep
  std::string x_column, y_column, sd_column;
  std::string
      reference_column; // crossing_jobs: the level each point is compared with (e.g. direct inference)
};

struct ValidationCase {
  std::string id;
  std::string title;
  std::string source;         // seed file and section, or dataset
  std::string file;           // the case file
  std::string observable;     // see observables.hpp
  std::string renamed_notice; // the file names a figure by its name from before the figure table
  std::string module;         // module observables: which pipeline module
  RunSpec run;
  std::optional<RunSpec> baseline; // speed-ups: the run to compare against
  std::string sweep_key;           // knee/plateau observables: the key swept
  std::string sweep_template;      // or a whole --set expression with {} standing for the value
  std::vector<double> sweep_values;
  std::optional<CurveDataset> dataset; // curve observables
  // crossing_jobs and curve_fraction_within_2sd: the figure compared (default: module_mean_s of `module`)
  std::string figure;
  // crossing_jobs: the level the figure falls below; none: the simulation's own direct-inference level at
  // each point (direct_events_per_s_per_job), i.e. where the direct-inference gain turns negative.
  std::optional<double> reference;
  int replications =
      1; // seeds per run (replication_seed): the simulated value is their mean, with its interval
  double measured = 0.0;
  double measured_uncertainty = 0.0;
  // A prediction case: no measurement, the value and 95 % interval the calibration predicted (and the command
  // that made it). Validate checks that the simulation still lands in that interval.
  struct Prediction {
    double value = 0.0;
    // The one 95 % interval (`interval95: [LOW, HIGH]`), none on a side the released data leave open.
    std::optional<double> low, high;
    // The check's tolerance: the parts a rerun of the same code varies by (seeds, fitted parameters,
    // leave-one-out fits), so that a drift of the simulation shows however wide the interval is.
    double reproduce_within = 0.0;
    std::string command;
    // What the answer rests on most (its ranked assumptions, each with the answer at both ends of its range,
    // largest swing first) and the measurement that would pin the first.
    std::vector<std::string> rests_on;
    std::string pinned_by;
  };
  std::optional<Prediction> predicted;
  // What the scenario gave before it was calibrated on the measurement (the "before" of the report), with
  // where that number comes from.
  std::optional<double> uncalibrated;
  std::string uncalibrated_note;
  // Tolerance: |simulated - measured| <= relative * measured (or absolute), or a one-sided bound.
  std::optional<double> relative_tolerance, absolute_tolerance, minimum, maximum;
  std::string tolerance_reason;
  std::string known_discrepancy; // non-empty: a miss is reported with this reason and does not fail the run
  bool fast = false;             // part of the quick subset run in CI on every commit
};

// Reads one case; throws ScenarioError naming file:line:col and the key on bad input.
ValidationCase load_validation_case(const std::string& path);

} // namespace sonicsim

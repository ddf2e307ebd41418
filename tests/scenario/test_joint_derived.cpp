// The derived table of a joint calibration (sim/app/calibrate/joint_derived.hpp) on a hand-made point: the
// device's inferences per second and a model's input bytes per second per job, beside what the measured rate
// gives.
#include "sim/app/calibrate/joint_derived.hpp"

#include "sim/scenario/scenario_loader.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

using namespace sonicsim;

TEST_CASE("derived quantities: device inferences/s and bytes/s per job against the measured rate") {
  const auto dir = std::filesystem::temp_directory_path() / "sonicsim_joint_derived";
  std::filesystem::create_directories(dir);
  const auto path = (dir / "derived.yaml").string();
  std::ofstream(path) << R"(
name: derived
models:
  tagger:
    input_bytes_per_inference: "10000B"
    output_bytes_per_inference: "40B"
    throughput: {T4: {points: [[1, 1000], [100, 5000]]}}
    triton: {max_batch_size: 64}
workload:
  jobs: 10
  pipeline:
    - {name: work, type: cpu, duration: "100ms"}
    - {name: tagger, type: remote_inference, model: tagger, inferences: 4, max_batch: 64}
)";
  JointSpec spec;
  JointSeries series;
  series.name = "scan";
  series.scenario = path;
  series.observable = FigureName{Figure::events_per_s_per_job, "", ""};
  JointConstraint bytes;
  bytes.scenario = path;
  bytes.module = "tagger";
  bytes.quantity = "input_bytes_per_event";
  bytes.value = 40'000;
  bytes.sd = 1'000;
  spec.constraints = {bytes};
  const calibration::MeasuredPoint point{10.0, 2.0, 0.1, 1}; // 10 jobs at 2.0 +- 0.1 events/s per job
  SeriesPointRun run;
  run.series = &series;
  run.point = &point;
  run.scenario = load_variant_file(path, {}, {});
  run.value = 2.2;                     // simulated events/s per job
  run.summary.gpus = 2;                // two devices
  run.summary.inferences_per_s = 88.0; // 10 jobs x 2.2 x 4 inferences
  run.summary.group_usage.push_back({});
  run.summary.group_usage.back().device_type = "T4";
  const auto rows = derived_quantities_json(spec, {run}, TextOutput{false});
  REQUIRE(rows.size() == 1);
  const auto& row = rows[0];
  CHECK(row["inferences_per_event"].get<double>() == doctest::Approx(4.0));
  CHECK(row["inferences_per_s_per_device"].get<double>() == doctest::Approx(44.0));
  // Measured: 2.0 events/s x 5 jobs per device x 4 = 40 +- 2 inferences/s per device: +2 sd.
  CHECK(row["measured_rate_inferences_per_s_per_device"].get<double>() == doctest::Approx(40.0));
  CHECK(row["residual_sd"].get<double>() == doctest::Approx(2.0));
  const auto& tagger = row["modules"][0];
  CHECK(tagger["input_bytes_per_s_per_job"].get<double>() == doctest::Approx(88'000.0)); // 40 kB x 2.2
  // Released 40 kB x 2.0 = 80 kB/s; sd hypot(40 kB x 0.1, 1 kB x 2.0) = 4,472 B/s: +1.79 sd.
  CHECK(tagger["released_input_bytes_per_s_per_job"].get<double>() == doctest::Approx(80'000.0));
  CHECK(tagger["residual_sd"].get<double>() == doctest::Approx(8'000.0 / 4'472.136).epsilon(1e-4));
  std::filesystem::remove_all(dir);
}

// calibrate --spec with model_form: leave_one_series_out (sim/calibration/model_form.hpp): two series that
// the model cannot both describe (they want CPU speeds 10 % apart), so each predicted from a fit to the other
// misses by about 10 %, and a prediction's interval carries that spread.
#include "simulate.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace {

// 4 threads per job, 1 s of CPU work per event at speed 1: 4 events/s per job, whatever the jobs.
const char* scenario = R"(
name: model_form
seed: 2
models:
  m:
    input_bytes_per_inference: "4B"
    output_bytes_per_inference: "4B"
    throughput: {T4: {points: [[1, 100000], [100, 100000]]}}
    triton: {max_batch_size: 100}
workload:
  jobs: 2
  threads: 4
  events_per_job: 200
  warmup_events: 4
  start_spread: "1s"
  pipeline:
    - {name: work, type: cpu, duration: {dist: lognormal, mean: "1s", sd: "100ms"}}
output: {precision: off}
)";

} // namespace

TEST_CASE("model form: each series predicted without itself; the prediction's interval carries the spread") {
  const auto dir = std::filesystem::temp_directory_path() / "sonicsim_model_form";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "scenario.yaml") << scenario;
  // Series a says 4.0 events/s per job (speed 1), series b 3.6 (speed 0.9): 10 % apart, each to 0.5 %.
  std::ofstream(dir / "data.csv")
      << "series,jobs,y,sd\na,2,4.0,0.02\na,4,4.0,0.02\nb,2,3.6,0.018\nb,4,3.6,0.018\n";
  const std::string sc = (dir / "scenario.yaml").string(), data = (dir / "data.csv").string();
  std::ofstream(dir / "spec.yaml") << R"(
max_evaluations: 20
model_form: leave_one_series_out
parameters:
  - key: speed
    set: "platform.cpu_mix=[{name: node, fraction: 1, speed: {}}]"
    lower: 0.5
    upper: 1.5
    initial: 1
series:
  - {name: a, scenario: )" + sc +
                                          ", data: " + data +
                                          R"(, x: jobs, y: y, sd: sd, observable: events_per_s_per_job,
     why_sd: test}
  - {name: b, scenario: )" + sc +
                                          ", data: " + data +
                                          R"(, x: jobs, y: y, sd: sd, observable: events_per_s_per_job,
     why_sd: test}
predictions:
  - {id: level, title: events/s per job at 3 jobs, scenario: )" +
                                          sc + R"(, overrides: ["workload.jobs=3"],
     observable: events_per_s_per_job, replications: 2}
)";
  const auto result = sonicsim::testing::run_sonicsim("calibrate --spec " + (dir / "spec.yaml").string() +
                                                      " -j 2 --out " + (dir / "out").string());
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  std::ifstream in(dir / "out" / "calibration.json");
  const auto json = nlohmann::json::parse(in);
  const auto& form = json["model_form"];
  REQUIRE(form["held_out"].size() == 4);
  // Fitted to b alone, a is predicted ~10 % low; fitted to a alone, b ~11 % high.
  for (const auto& point : form["held_out"]) {
    const double error = point["relative_error"].get<double>();
    if (point["series"] == "a")
      CHECK(error == doctest::Approx(-0.10).epsilon(0.2));
    else
      CHECK(error == doctest::Approx(0.111).epsilon(0.2));
  }
  CHECK(form["relative_rms"].get<double>() == doctest::Approx(0.105).epsilon(0.2));
  // Each held-out point's interval takes the other series' ~10 % error at 1.96 x: all 4 covered.
  CHECK(form["coverage"].get<double>() == 1.0);
  // The prediction at the joint fit (~3.8) spreads over the two fits (~3.6 and ~4.0): a jackknife se of
  // about 0.2, times Student's t with 1 degree of freedom (12.7): the interval is wide, as the data say.
  const auto& prediction = json["predictions"][0];
  CHECK(prediction["model_form_se"].get<double>() == doctest::Approx(0.2).epsilon(0.2));
  const double half_width = prediction["settings_half_width"].get<double>();
  CHECK(half_width > 12.7 * 0.15);
  // The answer's one interval holds that part whole (no held value, rival or reading widens it here).
  const auto& answer = json["answers"][0];
  CHECK(answer["interval95"][1].get<double>() - answer["interval95"][0].get<double>() ==
        doctest::Approx(2.0 * half_width));
  CHECK(result.output.find("model form: held-out points off by") != std::string::npos);
  std::filesystem::remove_all(dir);
}

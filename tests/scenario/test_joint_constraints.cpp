// The released facts of a joint calibration that are not series (sim/calibration/joint_constraints.hpp):
// their value in a scenario, and the refusal of a fitted value that contradicts one.
#include "sim/calibration/joint_constraints.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

using namespace sonicsim;

namespace {

// A scenario with one served module of 9,760-byte inferences (a padded ParticleNet jet).
std::string write_scenario(const std::filesystem::path& dir) {
  const auto path = dir / "constraint.yaml";
  std::ofstream(path) << R"(
name: constraint
models:
  tagger:
    input_bytes_per_inference: "9760B"
    output_bytes_per_inference: "40B"
    throughput: {T4: {points: [[1, 1000], [100, 5000]]}}
    triton: {max_batch_size: 64}
workload:
  jobs: 2
  pipeline:
    - {name: work, type: cpu, duration: "100ms"}
    - {name: tagger, type: remote_inference, model: tagger, inferences: {dist: normal, mean: 4, sd: 0.01},
       max_batch: 64}
)";
  return path.string();
}

} // namespace

TEST_CASE("a released fact beside the fitted scenario: a parameter moving it beyond 3 sd is refused") {
  const auto dir = std::filesystem::temp_directory_path() / "sonicsim_joint_constraints";
  std::filesystem::create_directories(dir);
  JointSpec spec;
  JointParameter jets;
  jets.fit.key = "jets";
  jets.sets = {"workload.pipeline.tagger.inferences={dist: normal, mean: {}, sd: 0.01}"};
  JointParameter other; // acts on something else: never blamed
  other.fit.key = "work";
  other.sets = {"workload.pipeline.work.duration={}ms"};
  spec.parameters = {jets, other};
  JointConstraint bytes;
  bytes.name = "tagger input per event (B)";
  bytes.scenario = write_scenario(dir);
  bytes.module = "tagger";
  bytes.quantity = "input_bytes_per_event";
  bytes.value = 39'040; // 4 jets of 9,760 B
  bytes.sd = 1'000;
  spec.constraints = {bytes};
  // 4 jets x 9,760 B at the start; the "fit" moves the jets to 8 and the work to 200 ms.
  const std::vector<double> start{4.0, 100.0}, fitted{8.0, 200.0};
  const auto checks = check_constraints(spec, start, fitted);
  REQUIRE(checks.size() == 1);
  CHECK(checks[0].before == doctest::Approx(39'040.0));
  CHECK(checks[0].after == doctest::Approx(78'080.0));
  CHECK(checks[0].residual_sd() == doctest::Approx(39.04));
  CHECK(contradicted_fact(spec, checks, start, fitted, 0).find("contradicts the released tagger input") == 0);
  CHECK(contradicted_fact(spec, checks, start, fitted, 1).empty());
  // 4.3 jets with an sd of 0.01 draw 4 (counts are rounded): 0 sd, adopted.
  const std::vector<double> near{4.3, 200.0};
  const auto near_checks = check_constraints(spec, start, near);
  CHECK(near_checks[0].residual_sd() == doctest::Approx(0.0));
  CHECK(contradicted_fact(spec, near_checks, start, near, 0).empty());
  // Inferences per event of the same module.
  spec.constraints[0].quantity = "inferences_per_event";
  CHECK(constraint_quantity(spec.constraints[0], {}) == doctest::Approx(4.0));
  std::filesystem::remove_all(dir);
}

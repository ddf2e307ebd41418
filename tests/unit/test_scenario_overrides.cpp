// --set key.path=value overrides: applied to the YAML before checking, validated against the schema (so a key
// the file left out can be set), and errors located at the --set argument.
#include <doctest/doctest.h>

#include <string>

#include "minimal_scenario.hpp"
#include "sim/scenario/scenario_loader.hpp"

using namespace sonicsim;

namespace {

const std::string& scenario = testing::minimal_scenario_yaml;

Scenario load_with(const std::vector<std::string>& sets) {
  return load_scenario_text(scenario, "s.yaml", sets);
}

std::string error_of(const std::vector<std::string>& sets) {
  try {
    load_with(sets);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "no error";
}

} // namespace

TEST_CASE("scenario overrides: plain values, units and YAML values replace what the file says") {
  const Scenario s = load_with({"workload.jobs=250", "platform.wan.rtt=20ms", "name=\"renamed\""});
  CHECK(s.workload.jobs == 250);
  CHECK(s.platform.wan.rtt_s == doctest::Approx(0.020)); // the file has no platform section: it is created
  CHECK(s.name == "renamed");
  const Scenario batching = load_with({"models.m.triton.dynamic_batching={enabled: true, "
                                       "preferred_batch_size: [4, 8], max_queue_delay: 100us}"});
  CHECK(batching.models.at("m").triton.dynamic_batching.enabled);
  CHECK(batching.models.at("m").triton.dynamic_batching.preferred_batch_sizes == std::vector<int>{4, 8});
  const Scenario sizes = load_with({"models.m.triton.dynamic_batching.preferred_batch_size=[4,8]"});
  CHECK(sizes.models.at("m").triton.dynamic_batching.preferred_batch_sizes == std::vector<int>{4, 8});
}

TEST_CASE("scenario overrides: later overrides win over earlier ones") {
  CHECK(load_with({"workload.jobs=5", "workload.jobs=7"}).workload.jobs == 7);
}

TEST_CASE("scenario overrides: list elements by index, and pipeline modules by name") {
  CHECK(load_with({"workload.pipeline.1.max_batch=32"}).workload.pipeline[1].max_batch == 32);
  CHECK(load_with({"workload.pipeline[1].max_batch=16"}).workload.pipeline[1].max_batch == 16);
  CHECK(load_with({"workload.pipeline.EmTrkMichelId.max_batch=8"}).workload.pipeline[1].max_batch == 8);
  const Scenario d = load_with({"workload.pipeline.reco.duration={dist: normal, mean: 2s, sd: 0.5s}"});
  CHECK(d.workload.pipeline[0].duration_s.kind == DistributionSpec::Kind::normal);
  CHECK(d.workload.pipeline[0].duration_s.sd == 0.5);
}

TEST_CASE("scenario overrides: a key the schema knows but the file omits can be set") {
  const Scenario s = load_with({"workload.pipeline.EmTrkMichelId.groups=32", "platform.network.tcp_window=0B",
                                "models.m.triton.dynamic_batching.default_queue_policy.max_queue_size=100"});
  CHECK(s.workload.pipeline[1].groups == 32);
  CHECK(s.platform.network.tcp_window_bytes == 0.0);
  // Setting a key inside dynamic_batching creates the section, which turns the dynamic batcher on.
  CHECK(s.models.at("m").triton.dynamic_batching.queue_policy.max_queue_size == 100);
  CHECK(s.models.at("m").triton.dynamic_batching.enabled);
}

TEST_CASE("scenario overrides: unknown keys are errors with a suggestion, at the --set argument") {
  // The retired single GPU price points at its replacement, not at its nearest neighbour cpu_hour.
  const std::string retired = error_of({"costs.gpu_hour=1"});
  CHECK(retired.find("costs.device_hour.T4=0.35") != std::string::npos);
  CHECK(retired.find("cpu_hour") == std::string::npos);
  CHECK(
      error_of({"workload.job=5"}) ==
      "--set workload.job=5: key 'workload.job': unknown key 'job' under 'workload' (did you mean 'jobs'?)");
  CHECK(error_of({"workload.pipeline.EmTrkMichelId.max_btach=8"}).find("(did you mean 'max_batch'?)") !=
        std::string::npos);
  CHECK(error_of({"workload.pipeline.EmTrkMichelID.max_batch=8"}) ==
        "--set workload.pipeline.EmTrkMichelID.max_batch=8: key 'workload.pipeline': no element named "
        "'EmTrkMichelID' (did you mean 'EmTrkMichelId'?)");
  CHECK(error_of({"workload.pipeline.5.max_batch=8"}) ==
        "--set workload.pipeline.5.max_batch=8: key 'workload.pipeline': index 5 is past the end: the list "
        "has 2 "
        "elements");
  CHECK(
      error_of({"workload.jobs.count=8"}).find("'workload.jobs' is a single value and has no key 'count'") !=
      std::string::npos);
}

TEST_CASE("scenario overrides: malformed arguments and bad values") {
  CHECK(error_of({"workload.jobs"}) ==
        "--set workload.jobs: expected KEY.PATH=VALUE, e.g. workload.jobs=200");
  CHECK(error_of({"workload.jobs="}) == "--set workload.jobs=: key 'workload.jobs': missing value after '='");
  CHECK(error_of({"workload.jobs=[1"})
            .find("--set workload.jobs=[1: key 'workload.jobs': the value is not valid "
                  "YAML") == 0);
  // The value is checked like one in the file, and the error points at the --set argument, not the file.
  CHECK(error_of({"workload.jobs=0"}) == "--set workload.jobs=0: key 'workload.jobs': got \"0\"; expected an "
                                         "integer in 1..1000000");
  CHECK(error_of({"platform.wan.rtt=12"}) == "--set platform.wan.rtt=12: key 'platform.wan.rtt': expected a "
                                             "duration with a unit, e.g. \"12ms\"; got the "
                                             "bare number \"12\"");
  CHECK(error_of({"platform.wan={rt: 12ms}"}) ==
        "--set platform.wan={rt: 12ms}: key 'platform.wan.rt': unknown key 'rt' (did you mean 'rtt'?)");
  // An override that leads to an error elsewhere is mentioned in that error.
  CHECK(error_of({"models.m.triton.max_batch_size=32"}) ==
        "s.yaml:12:91: key 'workload.pipeline[1].max_batch': got \"64\"; expected at most the model's "
        "triton.max_batch_size (32): Triton rejects larger requests (with --set "
        "models.m.triton.max_batch_size=32)");
  CHECK(error_of({"workload.pipeline.reco.duration.mean=2s"})
            .find("'workload.pipeline[0].duration' is written as a single value, not a map; set the whole "
                  "distribution") != std::string::npos);
}

TEST_CASE("scenario overrides: validate_key_path checks a path without a scenario (for --vary)") {
  CHECK_NOTHROW(validate_key_path("workload.jobs"));
  CHECK_NOTHROW(validate_key_path("workload.pipeline.EmTrkMichelId.max_batch"));
  CHECK_NOTHROW(validate_key_path("workload.pipeline.3.inferences.mean"));
  CHECK_NOTHROW(validate_key_path("models.anything.triton.dynamic_batching.max_queue_delay"));
  CHECK_NOTHROW(validate_key_path("platform.nic_mix.0.fraction"));
  try {
    validate_key_path("platform.server_groups.g.pod", "--vary platform.server_groups.g.pod=1,2");
    FAIL("expected a ScenarioError");
  } catch (const ScenarioError& e) {
    CHECK(std::string(e.what()) ==
          "--vary platform.server_groups.g.pod=1,2: key 'platform.server_groups.g.pod': unknown key "
          "'pod' under 'platform.server_groups.g' (did you mean 'pods'?)");
  }
  // A key of the single-pool format says what to write instead.
  try {
    validate_key_path("platform.server_pods.count", "--vary platform.server_pods.count=1,2");
    FAIL("expected a ScenarioError");
  } catch (const ScenarioError& e) {
    CHECK(std::string(e.what()).find("key 'server_pods' is no longer read: the servers are now named groups: "
                                     "write platform.server_groups:") != std::string::npos);
  }
  CHECK_THROWS_AS(validate_key_path("workload..jobs"), ScenarioError);
  CHECK_THROWS_AS(validate_key_path("platform.nic_mix.fast.fraction"), ScenarioError); // nic_mix has no names
}

TEST_CASE("--set key=null takes a key out, so that its default applies") {
  // An optional key: seed defaults to 1.
  CHECK(load_with({"seed=7"}).seed == 7);
  CHECK(load_with({"seed=7", "seed=null"}).seed == 1);
  // A required key: without it the loader says which.
  CHECK(error_of({"workload.jobs=null"}).find("workload.jobs") != std::string::npos);
  CHECK(error_of({"workload.pipeline.EmTrkMichelId.max_batch=null"}).find("max_batch") != std::string::npos);
}

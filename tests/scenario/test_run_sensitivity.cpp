// `run --sensitivity` (sim/app/run/run_sensitivity.hpp) on a scenario small enough to follow by hand: the
// unit model (1 s per request at the server, one request per event, transfers of nanoseconds), one job, and
// the round trip given a range in the provenance. Each end's run is the scenario at that value with the same
// seed.
#include "simulate.hpp"
#include "unit_model_scenario.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

using sonicsim::testing::one_t4;
using sonicsim::testing::read_json;
using sonicsim::testing::run_sonicsim;
using sonicsim::testing::scenario;

namespace {

// `range`: the provenance of platform.wan.rtt's range map; the scenario is written to `dir`/s.yaml.
std::filesystem::path write_scenario(const std::filesystem::path& dir, const std::string& range) {
  std::filesystem::create_directories(dir);
  const auto path = dir / "s.yaml";
  std::ofstream(path) << scenario(one_t4, "  jobs: 1\n  events_per_job: 20\n  warmup_events: 0\n")
                      << "provenance:\n  platform.wan.rtt: {assumed: \"one site\", range: " << range << "}\n";
  return path;
}

} // namespace

TEST_CASE("run --sensitivity: a round trip of 0 to 1 s moves each one-request event from 1 s to 2 s") {
  const auto dir = std::filesystem::temp_directory_path() / "sonicsim_run_sensitivity";
  std::filesystem::remove_all(dir);
  const auto path = write_scenario(dir, "{low: \"0s\", high: \"1s\", why: \"a test's range\"}");
  const auto result =
      run_sonicsim("run " + path.string() + " --sensitivity -q --out " + (dir / "out").string());
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  const auto json = read_json(dir / "out" / "sensitivity.json");
  REQUIRE(json["values"].size() == 1);
  const auto& rtt = json["values"][0];
  CHECK(rtt["key"] == "platform.wan.rtt");
  CHECK(rtt["why_range"] == "a test's range");
  // The request's way out and the reply's way back take half a round trip each: + 1 s per event.
  CHECK(rtt["at"]["event_mean_s"][0].get<double>() == doctest::Approx(1.0).epsilon(1e-6));
  CHECK(rtt["at"]["event_mean_s"][1].get<double>() == doctest::Approx(2.0).epsilon(1e-6));
  CHECK(rtt["event_mean_s_swing"].get<double>() == doctest::Approx(1.0).epsilon(1e-6));
  CHECK_FALSE(rtt["within_noise"].get<bool>());
  std::filesystem::remove_all(dir);
}

TEST_CASE("run --sensitivity: a range end the scenario refuses is told at the provenance's line; no range at "
          "all is refused") {
  const auto dir = std::filesystem::temp_directory_path() / "sonicsim_run_sensitivity_bad";
  std::filesystem::remove_all(dir);
  const auto path = write_scenario(dir, "{low: \"0s\", high: banana, why: \"a test's range\"}");
  const auto bad = run_sonicsim("run " + path.string() + " --sensitivity -q --out " + (dir / "out").string());
  INFO(bad.output);
  CHECK(bad.exit_code == 2);
  CHECK(bad.output.find("s.yaml:") != std::string::npos);
  CHECK(bad.output.find("provenance of platform.wan.rtt: range end 'banana' refused") != std::string::npos);
  const auto no_why = write_scenario(dir, "{low: \"0s\", high: \"1s\"}");
  const auto unsourced = run_sonicsim("run " + no_why.string() + " -q --out " + (dir / "out2").string());
  CHECK(unsourced.exit_code == 2);
  CHECK(unsourced.output.find("range: {low: VALUE, high: VALUE, why: WHERE THE RANGE COMES FROM}") !=
        std::string::npos);
  const auto none = run_sonicsim("run " + sonicsim::testing::config_path("perf_client_t4.yaml") +
                                 " --sensitivity -q --out " + (dir / "out3").string());
  CHECK(none.exit_code == 2);
  CHECK(none.output.find("no value this scenario uses gives a range") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE(
    "plan --sensitivity: the answer at each end of the model's capacity range is the plan made with that "
    "capacity set, and more capacity never needs more GPUs") {
  // 20 jobs, each event 9 s of CPU then one 1 s request: a job keeps a T4 busy a tenth of the time at most.
  // The capacity 0.5 to 2 of the curve moves the fewest T4s that keep the module within 10 % of its
  // unsaturated time.
  const auto dir = std::filesystem::temp_directory_path() / "sonicsim_plan_sensitivity";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string yaml = scenario("  server_groups:\n    gpu: {devices: {type: T4, count: 1}}\n",
                              "  jobs: 20\n  events_per_job: 40\n  warmup_events: 4\n");
  const std::string pipeline = "  pipeline:\n";
  yaml.insert(yaml.find(pipeline) + pipeline.size(),
              "    - {name: cpu, type: cpu, duration: {dist: constant, value: \"9s\"}}\n");
  yaml += "provenance:\n  models.unit.throughput.T4.scale: {assumed: \"1\", range: {low: 0.5, high: 2, why: "
          "\"a test's range\"}}\n";
  std::ofstream(dir / "s.yaml") << yaml;
  const auto result = run_sonicsim("plan " + (dir / "s.yaml").string() +
                                   " --jobs 20 --sensitivity -q --out " + (dir / "out").string());
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  const auto s = read_json(dir / "out" / "plan_sensitivity.json");
  const auto plan = read_json(dir / "out" / "plan.json");
  REQUIRE(s["values"].size() == 1);
  const auto& capacity = s["values"][0];
  CHECK(s["unit"] == "GPUs");
  const int answer = s["answer"].get<int>(), low = capacity["at_low"].get<int>(),
            high = capacity["at_high"].get<int>();
  CHECK(low >= answer);
  CHECK(answer >= high);
  CHECK(low > high); // half the capacity needs more T4s than twice of it
  CHECK(plan["found"].get<bool>());
  // The second route: a plain plan with the capacity set to its low end answers the same.
  const auto at_low =
      run_sonicsim("plan " + (dir / "s.yaml").string() +
                   " --jobs 20 --set models.unit.throughput.T4.scale=0.5 -q --out " + (dir / "low").string());
  REQUIRE(at_low.exit_code == 0);
  const auto low_plan = read_json(dir / "low" / "plan.json");
  int low_gpus = 0;
  for (const auto& option : low_plan["options"])
    if (option.value("chosen", false)) low_gpus = option["gpus"].get<int>();
  CHECK(low_gpus == low);
  std::filesystem::remove_all(dir);
}

// The --set expressions of a joint calibration's parameters (sim/calibration/joint_spec.hpp).
#include "sim/calibration/joint_spec.hpp"
#include "sim/scenario/input_error.hpp"

#include <doctest/doctest.h>

using namespace sonicsim;

TEST_CASE("a parameter's value goes where {} stands, C minus it where {C-} stands, on its series only") {
  JointParameter p;
  p.sets = {"workload.pipeline.a.inferences={dist: normal, mean: {}, sd: 2}",
            "workload.pipeline.a.direct={}ms", "workload.pipeline.b.direct={62.1-}ms"};
  p.series = {"scan"};
  const auto on_scan = parameter_override(p, "scan", 40.5);
  REQUIRE(on_scan.size() == 3);
  CHECK(on_scan[0] == "workload.pipeline.a.inferences={dist: normal, mean: 40.5, sd: 2}");
  CHECK(on_scan[1] == "workload.pipeline.a.direct=40.5ms");
  CHECK(on_scan[2] == "workload.pipeline.b.direct=21.6ms"); // 62.1 - 40.5
  CHECK(parameter_override(p, "other", 40.5).empty());
  p.series.clear(); // no series named: it acts on all
  CHECK(parameter_override(p, "other", 1).size() == 3);
  // {C-/N}: one measured sum shared by N equal parts (the three AK8 taggers' share of 62.1 ms).
  p.sets = {"workload.pipeline.c.direct={62.1-/3}ms"};
  CHECK(parameter_override(p, "", 44.4) == std::vector<std::string>{"workload.pipeline.c.direct=5.9ms"});
  for (const char* bad : {"x={abc-}", "x={62.1-/0}", "x={62.1-/}", "x={62.1-3}", "x={62.1-/a}", "x={-}"}) {
    p.sets = {bad};
    CHECK_THROWS_AS(parameter_override(p, "", 1), InputError);
  }
}

TEST_CASE("a prediction's set puts a parameter into its scenario by other keys, and makes it act there") {
  // The T4 switch time is fitted on the all-models series under group t4; the large-scale run's AK8 pool is
  // group pn_ak8_t4, and its predictions name the single-model series, on which the switch time does not act.
  JointSpec spec;
  JointParameter speed, switch_time;
  speed.fit.key = "speed";
  speed.sets = {"platform.speed={}"};
  speed.series = {"scan"};
  switch_time.fit.key = "platform.server_groups.t4.devices.model_switch_time";
  switch_time.sets = {"platform.server_groups.t4.devices.model_switch_time={}ms"};
  switch_time.series = {"all_models"};
  spec.parameters = {speed, switch_time};
  JointPrediction prediction;
  prediction.series = {"scan"};
  CHECK(prediction_overrides(spec, prediction, {1.5, 3.0}) == std::vector<std::string>{"platform.speed=1.5"});
  CHECK(acts_on_prediction(speed, prediction));
  CHECK_FALSE(acts_on_prediction(switch_time, prediction));
  prediction.set[switch_time.fit.key] = {"platform.server_groups.pn_ak8_t4.devices.model_switch_time={}ms"};
  CHECK(prediction_overrides(spec, prediction, {1.5, 3.0}) ==
        std::vector<std::string>{"platform.speed=1.5",
                                 "platform.server_groups.pn_ak8_t4.devices.model_switch_time=3ms"});
  CHECK(acts_on_prediction(switch_time, prediction));
  // A set replaces the parameter's own expressions there, even where it acts through the series too.
  prediction.set[speed.fit.key] = {"platform.other_speed={}"};
  CHECK(prediction_overrides(spec, prediction, {1.5, 3.0}).front() == "platform.other_speed=1.5");
}

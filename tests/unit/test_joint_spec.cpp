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

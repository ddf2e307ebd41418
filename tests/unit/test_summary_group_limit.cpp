// A server group's busiest resource in summary.json (sim/metrics/summary_json.cpp): written with its kind,
// read back the same, and read from a file written before "limit_kind" existed by the name the recorder
// gives each resource.
#include "sim/metrics/summary_json.hpp"

#include <doctest/doctest.h>

using namespace sonicsim;

TEST_CASE("summary.json: a group's limit keeps its kind and group; older files give it by the name") {
  RunSummary summary;
  ServerGroupUsage usage;
  usage.name = "triton";
  usage.device_type = "T4";
  usage.limit = Bottleneck{ResourceKind::pod_nics, 0, "pod NICs", 0.95};
  summary.group_usage = {usage, usage};
  summary.group_usage[1].limit = Bottleneck{ResourceKind::host_cores, 1, "host cores of cpu", 0.5};
  auto json = run_summary_to_json(summary);
  CHECK(json["server"]["groups"][0]["limit_kind"] == "pod_nics");
  const RunSummary back = run_summary_from_json(json);
  REQUIRE(back.group_usage.size() == 2);
  CHECK(back.group_usage[0].limit.same_resource(summary.group_usage[0].limit));
  CHECK(back.group_usage[0].limit.saturated());
  CHECK(back.group_usage[1].limit.same_resource(summary.group_usage[1].limit));
  // An older file: no limit_kind; "host cores of cpu" is a host_cores limit of the second group.
  for (auto& group : json["server"]["groups"])
    group.erase("limit_kind");
  const RunSummary old = run_summary_from_json(json);
  CHECK(old.group_usage[0].limit.kind == ResourceKind::pod_nics);
  CHECK(old.group_usage[1].limit.kind == ResourceKind::host_cores);
  CHECK(old.group_usage[1].limit.group == 1);
  json["server"]["groups"][0]["limit_kind"] = "gpu";
  CHECK_THROWS_WITH(run_summary_from_json(json), "limit_kind: not a resource kind");
}

// Replies up to platform.network.small_reply_max are delivered after latency + size / path rate instead of as
// SimGrid flows (sim/components/job_client.cpp). That is CM02's time for a flow alone on its path, and
// replies travel on the inbound direction, which carries nothing else, so with one job per node the results
// must be those of simulating every reply as a flow ("0B"), down to floating-point rounding, unless replies
// overlap.
#include "simulate.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using sonicsim::testing::module_mean_s;
using sonicsim::testing::simulate;

namespace {
void check_same_as_flows(const std::vector<std::string>& overrides, double relative_tolerance) {
  std::vector<std::string> with_flows = overrides;
  with_flows.push_back("platform.network.small_reply_max=0B");
  const auto delayed = simulate("protodune_2020_large_batch.yaml", overrides);
  const auto flows = simulate("protodune_2020_large_batch.yaml", with_flows);
  REQUIRE(delayed.events_completed == flows.events_completed);
  CHECK(delayed.requests_sent == flows.requests_sent);
  CHECK(delayed.batches_executed == flows.batches_executed);
  CHECK(delayed.bytes_from_servers == doctest::Approx(flows.bytes_from_servers).epsilon(1e-12));
  CHECK(module_mean_s(delayed, "EmTrkMichelId") ==
        doctest::Approx(module_mean_s(flows, "EmTrkMichelId")).epsilon(relative_tolerance));
  CHECK(delayed.event.mean_s == doctest::Approx(flows.event.mean_s).epsilon(relative_tolerance));
  CHECK(delayed.event.max_s == doctest::Approx(flows.event.max_s).epsilon(relative_tolerance));
  CHECK(delayed.inferences_per_s == doctest::Approx(flows.inferences_per_s).epsilon(relative_tolerance));
}
} // namespace

TEST_CASE("small replies as delays: same results as reply flows, one job per node") {
  // 1e-9: only the order of floating-point operations differs (a timer date against SimGrid's remaining
  // bytes). Both NIC classes of the scenario occur: 10 Gbps nodes are window-bound (3 MB / 12 ms = 2 Gb/s),
  // 1 Gbps nodes NIC-bound, so both branches of the path rate are exercised.
  SUBCASE("below the knee") {
    check_same_as_flows({"workload.jobs=60", "workload.events_per_job=3", "output.precision=off"}, 1e-9);
  }
  SUBCASE("saturated GPUs, 400 jobs") {
    check_same_as_flows({"workload.jobs=400", "workload.events_per_job=3", "output.precision=off"}, 1e-9);
  }
  SUBCASE("no TCP window: the narrowest link alone sets the rate") {
    // Without the window cap two replies at 10 Gbps can overlap on the 16 Gbps pod NIC, for the ~22 us a
    // 27 kB reply lasts; that is rare (2e-9 seen). 1e-6 allows for it; a wrong rate or a missing latency
    // moves the module mean by more than 1e-3 (32 replies x 6 ms against ~11 s).
    check_same_as_flows({"workload.jobs=60", "workload.events_per_job=3", "output.precision=off",
                         "platform.network.tcp_window=0B"},
                        1e-6);
  }
}

TEST_CASE("small replies as delays: eight jobs per node share a NIC, within 1e-4") {
  // Replies to jobs on the same node can now overlap on its NIC, which the delay ignores. The largest
  // possible error per reply is another reply's transfer time: 1,693 x 16 B = 27 kB at 1 Gbps = 0.2 ms,
  // against module times of seconds, so means may move by parts in 1e-4 at most.
  check_same_as_flows(
      {"workload.jobs=400", "workload.events_per_job=3", "output.precision=off", "platform.jobs_per_node=8"},
      1e-4);
}

TEST_CASE("replies above small_reply_max are flows: identical to simulating all replies as flows") {
  // 1 KiB is below every reply of the scenario (~27 kB), so no reply takes the shortcut.
  check_same_as_flows({"workload.jobs=60", "workload.events_per_job=3", "output.precision=off",
                       "platform.network.small_reply_max=1KiB"},
                      1e-15);
}

TEST_CASE("small replies: a run whose reply path is over 10 % busy says so") {
  // Outputs almost as large as inputs (38 B against 50 B) through a 50 Mb/s pod NIC: the NIC's outbound
  // direction carries ~28 % of replies, and replies timed as if alone would be late by up to 0.7 % here.
  const std::vector<std::string> busy_replies{"workload.jobs=100",
                                              "workload.events_per_job=3",
                                              "output.precision=off",
                                              "models.emtrkmichelid.input_bytes_per_inference=50B",
                                              "models.emtrkmichelid.output_bytes_per_inference=38B",
                                              "platform.server_groups.gke_4xt4.nic_bandwidth=0.05Gbps"};
  const auto warned = simulate("protodune_2020_large_batch.yaml", busy_replies);
  REQUIRE(warned.warnings.size() == 1);
  CHECK(warned.warnings[0].find("pod0_nic_out") == 0);
  CHECK(warned.warnings[0].find("small_reply_max=0B") != std::string::npos);
  std::vector<std::string> as_flows = busy_replies;
  as_flows.push_back("platform.network.small_reply_max=0B");
  CHECK(simulate("protodune_2020_large_batch.yaml", as_flows).warnings.empty());
  // The shipped scenario's replies are ~1/576 of its requests: no warning even with saturated GPUs.
  CHECK(simulate("protodune_2020_large_batch.yaml",
                 {"workload.jobs=400", "workload.events_per_job=3", "output.precision=off"})
            .warnings.empty());
}

// Asynchronous clients (a what-if of DESIGN.md): several requests in flight overlap transfer, round trips and
// GPU time, so the module gets shorter below the knee; the GPU work per event does not change.
#include "simulate.hpp"

#include <doctest/doctest.h>

using sonicsim::testing::module_mean_s;
using sonicsim::testing::simulate;

TEST_CASE("asynchronous clients with 4 requests in flight shorten the module at low load") {
  const std::vector<std::string> low_load{"workload.jobs=40", "workload.events_per_job=6",
                                          "output.precision=off"};
  auto async = low_load;
  async.insert(async.end(), {"workload.client.mode=async", "workload.client.max_in_flight=4"});
  const auto sync_summary = simulate("protodune_2020_large_batch.yaml", low_load);
  const auto async_summary = simulate("protodune_2020_large_batch.yaml", async);
  const double sync_s = module_mean_s(sync_summary, "EmTrkMichelId");
  const double async_s = module_mean_s(async_summary, "EmTrkMichelId");
  MESSAGE("sync " << sync_s << " s, async x4 " << async_s << " s");
  // Synchronous: 7 s preprocessing + ~2.8 s transfer + 0.38 s round trips + ~1.8 s GPU, in series (~11.9 s).
  // With 4 in flight the 32 requests of an event overlap, leaving the 7 s of preprocessing plus about a
  // quarter to a half of the rest: the module must lose at least 1.5 s and can never go below the
  // preprocessing.
  CHECK(async_s < sync_s - 1.5);
  CHECK(async_s > 7.0);
  // Same requests either way: ~32 per event of ~1,700 inferences.
  CHECK(async_summary.mean_request_size == doctest::Approx(sync_summary.mean_request_size).epsilon(0.02));
}

// The sharing rules of a pod's resources (sim/policy/server_resources.hpp), hand-computed.
#include "sim/policy/server_resources.hpp"

#include <doctest/doctest.h>

using namespace sonicsim;

TEST_CASE("a device runs one batch at a time, in the order handed over, whoever sends it") {
  DeviceTimeline device;
  // Model A hands over a 10 ms batch at t = 0; model B a 20 ms batch at t = 5 ms: B waits for A (5 ms) and
  // ends at 30 ms; A again at 12 ms waits for B and ends at 40 ms.
  const Booking a = device.run_batch(0.000, 0.010);
  const Booking b = device.run_batch(0.005, 0.020);
  const Booking a2 = device.run_batch(0.012, 0.010);
  CHECK(a.start_s == doctest::Approx(0.000));
  CHECK(a.end_s == doctest::Approx(0.010));
  CHECK(b.start_s == doctest::Approx(0.010));
  CHECK(b.end_s == doctest::Approx(0.030));
  CHECK(a2.start_s == doctest::Approx(0.030));
  CHECK(a2.end_s == doctest::Approx(0.040));
  // Work-conserving: the busy time is the sum of the batches' own times.
  CHECK(device.busy_s() == doctest::Approx(0.040));
  // An idle device starts a batch at once.
  CHECK(device.run_batch(1.0, 0.5).start_s == doctest::Approx(1.0));
}

TEST_CASE("two models on one device split its time: X_A t_A / b_A + X_B t_B / b_B = 1 at saturation") {
  // A: batches of 64 in 10 ms (6,400 inferences/s alone); B: batches of 16 in 20 ms (800/s alone). Both
  // always have a batch waiting and alternate: a cycle of 30 ms holds one of each, so A gets 64 / 0.03 =
  // 2,133/s and B 16 / 0.03 = 533/s: 2,133 / 6,400 + 533 / 800 = 1/3 + 2/3 = 1.
  DeviceTimeline device;
  double now_s = 0.0;
  int a_inferences = 0, b_inferences = 0;
  for (int cycle = 0; cycle < 1000; ++cycle) {
    now_s = device.run_batch(now_s, 0.010).end_s;
    a_inferences += 64;
    now_s = device.run_batch(now_s, 0.020).end_s;
    b_inferences += 16;
  }
  const double a_per_s = a_inferences / now_s, b_per_s = b_inferences / now_s;
  CHECK(a_per_s == doctest::Approx(6400.0 / 3.0));
  CHECK(b_per_s == doctest::Approx(1600.0 / 3.0));
  CHECK(a_per_s / 6400.0 + b_per_s / 800.0 == doctest::Approx(1.0));
}

TEST_CASE("a model switch costs its time on the batch after another model's, and nothing otherwise") {
  // 2 ms per switch. A (10 ms) at 0, A again (10 ms) at 0: no switch, ends at 20 ms. B (20 ms) at 0: after A,
  // so 22 ms, ends at 42 ms. A (10 ms): after B, 12 ms, ends at 54 ms. Busy: 10 + 10 + 22 + 12 = 54 ms.
  DeviceTimeline device(0.002);
  CHECK(device.run_batch(0.0, 0.010, 0).end_s == doctest::Approx(0.010)); // the first batch pays nothing
  CHECK(device.run_batch(0.0, 0.010, 0).end_s == doctest::Approx(0.020));
  CHECK(device.run_batch(0.0, 0.020, 1).end_s == doctest::Approx(0.042));
  CHECK(device.run_batch(0.0, 0.010, 0).end_s == doctest::Approx(0.054));
  CHECK(device.busy_s() == doctest::Approx(0.054));
  CHECK(device.model_switches() == 2);
  // The two-model cycle above (A 64 in 10 ms, B 16 in 20 ms, alternating) with 2 ms switches: 34 ms per
  // cycle, so A gets 64 / 0.034 = 1,882/s and B 16 / 0.034 = 471/s; the shares add to 30 / 34 = 0.882 of
  // what perfect sharing gives.
  DeviceTimeline shared(0.002);
  double now_s = 0.0;
  for (int cycle = 0; cycle < 1000; ++cycle) {
    now_s = shared.run_batch(now_s, 0.010, 0).end_s;
    now_s = shared.run_batch(now_s, 0.020, 1).end_s;
  }
  CHECK(64000.0 / now_s == doctest::Approx(64.0 / 0.034).epsilon(1e-4)); // the first A paid no switch
  CHECK(64000.0 / now_s / 6400.0 + 16000.0 / now_s / 800.0 == doctest::Approx(30.0 / 34.0).epsilon(1e-4));
}

TEST_CASE("a model-switch slowdown lengthens the batch after another model's by a fraction of its time") {
  // Slowdown 0.5 and a 2 ms switch. A (10 ms): first, 10 ms. B (20 ms) after A: 20 x 1.5 + 2 = 32 ms, ends
  // at 42 ms. B again (20 ms): same model, 20 ms, ends at 62 ms. A (10 ms) after B: 10 x 1.5 + 2 = 17 ms,
  // ends at 79 ms.
  DeviceTimeline device(0.002, 0.5);
  CHECK(device.run_batch(0.0, 0.010, 0).end_s == doctest::Approx(0.010));
  CHECK(device.run_batch(0.0, 0.020, 1).end_s == doctest::Approx(0.042));
  CHECK(device.run_batch(0.0, 0.020, 1).end_s == doctest::Approx(0.062));
  CHECK(device.run_batch(0.0, 0.010, 0).end_s == doctest::Approx(0.079));
  CHECK(device.busy_s() == doctest::Approx(0.079));
  CHECK(device.model_switches() == 2);
  // Alone (one model) the slowdown never applies: ten 10 ms batches take 100 ms.
  DeviceTimeline alone(0.0, 0.5);
  double now_s = 0.0;
  for (int i = 0; i < 10; ++i)
    now_s = alone.run_batch(now_s, 0.010, 3).end_s;
  CHECK(now_s == doctest::Approx(0.100));
}

TEST_CASE("host cores serve first come, first served, one item per core") {
  HostCores host(2);
  CHECK(host.cores() == 2);
  // Three 10 ms items at t = 0: two start at once, the third waits for the first free core.
  const Booking first = host.run(0.0, 0.010);
  const Booking second = host.run(0.0, 0.010);
  const Booking third = host.run(0.0, 0.010);
  CHECK(first.start_s == 0.0);
  CHECK(second.start_s == 0.0);
  CHECK(third.start_s == doctest::Approx(0.010));
  CHECK(third.end_s == doctest::Approx(0.020));
  CHECK(host.free_at_s() == doctest::Approx(0.010)); // one core frees at 10 ms, the other at 20 ms
  // Later work on an idle core starts when it arrives.
  CHECK(host.run(1.0, 0.001).start_s == doctest::Approx(1.0));
}

// How long a GPU takes to execute one batch: batch / throughput(batch) plus a fixed overhead, with the
// throughput interpolated from the measured (batch size, inferences per second) points of the scenario.
#pragma once

#include "sim/scenario/scenario.hpp"

namespace sonicsim {

// Throughput in inferences per second at `batch_size`, linear between points. Below the first point the batch
// time is that of the first point (a GPU does not get faster than its smallest measured batch:
// latency-bound); above the last point the throughput stays at the last value (saturated).
double interpolated_throughput_per_s(const ThroughputCurve& curve, double batch_size);

// Execution time of one batch on one GPU, in seconds.
double batch_service_time_s(const ThroughputCurve& curve, double batch_size);

} // namespace sonicsim

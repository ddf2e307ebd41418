// Which reading (DeviceTimeMapping) a set of perf_analyzer files calls for, from two signatures the files
// carry on their own. Pure code; `sonicsim import perf-analyzer` prints it and a test holds the shipped
// scenarios to it.
//
// - Asynchronous backend: Compute Output exceeds Compute Infer and batch / Compute Infer is over 1.5x the
//   measured rate. The backend returned before the device was done (PyTorch), so the device time is in
//   Compute Output.
// - Unreachable by its own device time: the measured rate is over 1.1x batch / Compute Infer (1.1:
// perf_analyzer's
//   own +-10 % stability criterion). One device cannot run faster than its own execution time allows, so each
//   Compute Infer timed an execution of several requests at once (merged by the batcher, or instances
//   overlapping on the device). compute-infer would make the device slower than it measured; merged-async
//   counts the k requests one execution must have held (its device time infer + output, where Output is a few
//   microseconds for a backend that waits for its device).
// A file with either signature calls for merged-async; most files with one decide the set. CPU files are
// different: a Triton CPU server runs its instances side by side on separate cores, so a rate above one
// instance's is several instances, not merging, and compute-infer (per instance) stays their reading.
#pragma once

#include "sim/measurements/perf_analyzer.hpp"

#include <cstddef>
#include <string>

namespace sonicsim::measurements {

struct ReadingAdvice {
  DeviceTimeMapping reading = DeviceTimeMapping::compute_infer;
  std::size_t files = 0;
  std::size_t asynchronous = 0; // files with the asynchronous-backend signature
  std::size_t unreachable = 0;  // files measured faster than their own device time allows
  std::size_t merged = 0;       // files with either signature
  bool cpu_device = false;
};

ReadingAdvice advise_reading(const PerfAnalyzerImport& imported, bool cpu_device);

// The advice as the import prints it, against the reading that was asked for.
std::string reading_advice_text(const ReadingAdvice& advice, DeviceTimeMapping asked);

} // namespace sonicsim::measurements

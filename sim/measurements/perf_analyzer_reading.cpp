#include "sim/measurements/perf_analyzer_reading.hpp"

namespace sonicsim::measurements {

ReadingAdvice advise_reading(const PerfAnalyzerImport& imported, bool cpu_device) {
  ReadingAdvice advice;
  advice.cpu_device = cpu_device;
  advice.files = imported.files.size();
  for (const auto& file : imported.files) {
    if (file.rows.empty()) continue;
    const auto& row = file.rows.front();
    const double by_infer_per_s = file.batch_size / row.compute_infer_s;
    const bool asynchronous =
        row.compute_output_s > row.compute_infer_s && by_infer_per_s > 1.5 * row.inferences_per_s;
    const bool unreachable = row.inferences_per_s > 1.1 * by_infer_per_s;
    advice.asynchronous += asynchronous ? 1 : 0;
    advice.unreachable += unreachable ? 1 : 0;
    advice.merged += asynchronous || unreachable ? 1 : 0;
  }
  advice.reading = !cpu_device && advice.merged > 0 && 2 * advice.merged >= advice.files
                       ? DeviceTimeMapping::merged_async
                       : DeviceTimeMapping::compute_infer;
  return advice;
}

std::string reading_advice_text(const ReadingAdvice& advice, DeviceTimeMapping asked) {
  const std::string of = " of " + std::to_string(advice.files) + " files ";
  const std::string counts =
      std::to_string(advice.asynchronous) + of +
      "show the asynchronous-backend signature (Compute Output above Compute Infer, batch / Compute Infer "
      "over 1.5x the measured rate: the device time is in Compute Output) and " +
      std::to_string(advice.unreachable) + of +
      "measured faster than 1.1x batch / Compute Infer (one device cannot beat its own execution time: each "
      "execution held several requests); " +
      std::to_string(advice.merged) + " show one or the other.";
  if (advice.cpu_device)
    return "reading: compute-infer, per CPU instance: " + std::to_string(advice.unreachable) + of +
           "measured faster than one instance's batch / Compute Infer, which on a CPU server means instances "
           "running side by side on separate cores (the scenario's instance_group count), not merging.";
  if (advice.reading == DeviceTimeMapping::merged_async) {
    if (asked == DeviceTimeMapping::merged_async) return "reading: merged-async, as asked: " + counts;
    return "reading: use merged-async (--device-time merged-async; perf_analyzer_reading: merged-async in a "
           "scenario). " +
           counts + " compute-infer cannot reproduce the measured rates with these files.";
  }
  if (asked == DeviceTimeMapping::merged_async)
    return "reading: compute-infer would be perf_analyzer's own definition here: " + counts;
  return "reading: compute-infer (perf_analyzer's definition): " + counts;
}

} // namespace sonicsim::measurements

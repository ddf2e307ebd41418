// How precisely a run measured its headline figures: batch means over the steady-state window
// (batch_means.hpp), judged against output.precision (run_precision.hpp).
#include "sim/metrics/run_precision.hpp"
#include "sim/metrics/run_recorder.hpp"

#include <algorithm>
#include <utility>

namespace sonicsim {

RunPrecision RunRecorder::precision_so_far(double now_s) const {
  const bool steady = jobs_ready_ >= scenario_.workload.jobs && now_s > latest_ready_so_far_s_;
  return precision_over(latest_ready_so_far_s_, now_s, steady);
}

RunPrecision RunRecorder::precision_over(double start_s, double end_s, bool steady) const {
  RunPrecision precision;
  precision.target_relative = scenario_.output.precision_relative;
  precision.held = scenario_.output.precision_figures;
  precision.events_per_job = scenario_.workload.events_per_job;
  precision.events_per_job_written = scenario_.workload.events_per_job;
  precision.window_start_s = start_s;
  precision.window_end_s = end_s;
  if (scenario_.workload.campaign) {
    precision.applies = false; // the campaign's window is its own time: jobs come and go, nothing is steady
    return precision;
  }
  if (!steady) {
    precision.intervals.problem = "no steady-state window: the first job ran out of events before the last "
                                  "one had warmed up";
    return precision;
  }
  const PrecisionBins& bins = precision_bins_;
  const auto per_second = [](const TimeBins& amount, double scale) {
    return [&amount, scale](double from_s, double to_s) {
      return std::pair{amount.sum_between(from_s, to_s), scale * (to_s - from_s)};
    };
  };
  const auto per_event = [&bins](const TimeBins& amount) {
    return [&amount, &bins](double from_s, double to_s) {
      return std::pair{amount.sum_between(from_s, to_s), bins.events.sum_between(from_s, to_s)};
    };
  };
  std::vector<WindowRatio> series{{"events_per_s", per_second(bins.events, 1.0)},
                                  {"event_mean_s", per_event(bins.event_time_s)}};
  if (std::find(served_module_.begin(), served_module_.end(), true) != served_module_.end())
    series.push_back({"module_mean_s", per_event(bins.served_module_time_s)});
  if (gpu_count_ > 0) series.push_back({"gpu_utilisation", per_second(bins.gpu_busy_s, gpu_count_)});
  const double resolution_s =
      std::max({bins.events.bin_width_s(), bins.event_time_s.bin_width_s(),
                bins.served_module_time_s.bin_width_s(), bins.gpu_busy_s.bin_width_s()});
  precision.intervals = batch_means(series, start_s, end_s, resolution_s);
  judge_precision(precision);
  return precision;
}

} // namespace sonicsim

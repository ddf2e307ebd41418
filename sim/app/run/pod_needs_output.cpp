#include "sim/app/run/pod_needs_output.hpp"

#include "sim/metrics/number_text.hpp"

#include <algorithm>
#include <cstdio>

namespace sonicsim {

void print_pod_needs(const analysis::PodNeeds& needs) {
  const AutoscalerSettings& a = needs.autoscaler;
  std::printf("\nautoscaled group %s (%d..%d pods, %s against %s): the MVA at %d jobs per pod count\n",
              needs.group.c_str(), a.min_pods, a.max_pods, load_metric_name(a.metric),
              significant(a.threshold).c_str(), needs.jobs);
  std::printf("%8s %12s %12s %10s %22s\n", "pods", "MVA event s", "MVA events/s", "MVA GPU %",
              "queue s per request");
  // Every row up to a few past the answer: the rest only repeat the unloaded figures.
  const int shown_until = needs.needed ? *needs.needed + 3 : a.max_pods;
  for (const auto& p : needs.points) {
    if (p.pods > shown_until) break;
    std::printf("%8d %12s %12.4g %10.1f %22s%s\n", p.pods, significant(p.mva_event_s).c_str(),
                p.mva_events_per_s, 100.0 * p.mva_gpu_utilisation,
                significant(p.queue_wait_per_request_s).c_str(),
                needs.needed && p.pods == *needs.needed ? "  <- the threshold's count" : "");
  }
  if (needs.needed && needs.reach_s)
    std::printf("  %d jobs need %d pods by the threshold; from %d the autoscaler gets there in about %s s "
                "(%d-pod steps every %s s, the scale-up window, then %s s of start-up), if the metric stays "
                "above the threshold meanwhile\n",
                needs.jobs, *needs.needed, a.min_pods, significant(*needs.reach_s).c_str(),
                a.scale_up_policy.pods,
                significant(std::max(a.sync_period_s, a.scale_up_policy.period_s)).c_str(),
                significant(a.startup_delay_s).c_str());
  std::printf("  %s\n", needs.note.c_str());
}

nlohmann::ordered_json pod_needs_to_json(const analysis::PodNeeds& needs) {
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const auto& p : needs.points)
    points.push_back({{"pods", p.pods},
                      {"mva_event_s", p.mva_event_s},
                      {"mva_events_per_s", p.mva_events_per_s},
                      {"mva_gpu_utilisation", p.mva_gpu_utilisation},
                      {"queue_wait_per_request_s", p.queue_wait_per_request_s}});
  return {
      {"group", needs.group},
      {"jobs", needs.jobs},
      {"points", points},
      {"needed_pods", needs.needed ? nlohmann::ordered_json(*needs.needed) : nlohmann::ordered_json(nullptr)},
      {"reach_s", needs.reach_s ? nlohmann::ordered_json(*needs.reach_s) : nlohmann::ordered_json(nullptr)},
      {"note", needs.note}};
}

} // namespace sonicsim

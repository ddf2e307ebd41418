#include "sim/app/run/operations_printer.hpp"

#include "sim/metrics/number_text.hpp"

#include <cstdio>
#include <string>

namespace sonicsim {
namespace {

template <typename... Numbers> std::string format(const char* pattern, Numbers... numbers) {
  char buffer[320];
  std::snprintf(buffer, sizeof buffer, pattern, numbers...);
  return buffer;
}

double as_double(std::uint64_t n) {
  return static_cast<double>(n);
}

} // namespace

void print_operations_lines(std::ostream& out, const OperationsSummary& operations) {
  for (const auto& p : operations.pools) {
    out << format("pool %-15s", p.group.c_str())
        // %.4g: a pool that never changed serves "44 pods", not "44.00"; a mean reads "43.87".
        << format("%.4g pods serving on average, peak %d held (%s %d..%d); %.3g device-h held, %.3g for a "
                  "static %d (%.0f %%)\n",
                  p.mean_serving_pods, p.peak_pods, p.autoscaled ? "autoscaled" : "fixed", p.min_pods,
                  p.max_pods, p.device_hours, p.static_peak_device_hours, p.peak_pods,
                  p.static_peak_device_hours > 0 ? 100.0 * p.device_hours / p.static_peak_device_hours : 0.0);
    if (p.autoscaled)
      out << format("                    %d pods added, %d removed", p.pods_added, p.pods_removed)
          << (p.first_scale_up_serving_s ? format("; the first added asked for at %.0f s, serving at %.0f s",
                                                  *p.first_scale_up_decided_s, *p.first_scale_up_serving_s)
                                         : std::string())
          << "\n";
    if (p.pod_failures > 0) out << format("                    %d pod failures\n", p.pod_failures);
    if (p.cost_usd)
      out << format("                    cost %.2f USD at the scenario's prices\n", *p.cost_usd);
  }
  const EventOutcomes& e = operations.events;
  out << format(
      "event outcomes      %.0f started: %.0f completed, %.0f after a retry, %.0f with the fallback, "
      "%.0f failed refused, %.0f failed timed out, %.0f in progress at the end\n",
      as_double(e.started), as_double(e.completed), as_double(e.completed_after_retry),
      as_double(e.completed_with_fallback), as_double(e.failed_rejected), as_double(e.failed_timed_out),
      as_double(e.in_progress_at_end));
  out << format("requests            %.0f timed out, %.0f refused by a proxy (%.0f of them by its circuit "
                "breaker), %.0f to the fallback, %.0f lost (failed pods, WAN down), %.0f reset at the end of "
                "a pod's drain; %.0f clients refused\n",
                as_double(operations.requests_timed_out), as_double(operations.requests_refused),
                as_double(operations.requests_overflowed), as_double(operations.requests_to_fallback),
                as_double(operations.requests_lost), as_double(operations.requests_reset),
                as_double(operations.clients_refused));
  if (const auto& h = operations.client_holds)
    out << format(
        "scale from zero     %.0f new clients held until a server was ready (mean %s s, longest %s s), "
        "%.0f refused when their hold timed out\n",
        as_double(h->released),
        h->released ? significant(h->total_held_s / as_double(h->released)).c_str() : "-",
        h->released ? significant(h->longest_held_s).c_str() : "-", as_double(h->timed_out));
  if (operations.jobs_preempted > 0)
    out << format("preemption          %.0f jobs preempted: %.0f events lost in progress, %.0f resubmitted; "
                  "%.0f jobs abandoned after preemption.max_resubmissions, with %.0f events never run\n",
                  as_double(operations.jobs_preempted), as_double(e.failed_preempted),
                  as_double(operations.events_resubmitted), as_double(operations.jobs_abandoned),
                  as_double(operations.events_abandoned));
}

} // namespace sonicsim

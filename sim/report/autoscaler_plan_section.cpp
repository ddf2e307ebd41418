// `plan --autoscaler` (plan_autoscaler.json): every autoscaler setting tried, as device-hours against event
// time beside the static reference, the answer marked, and the table with each setting's intervals.
#include "sim/report/pool_charts.hpp"
#include "sim/report/report_sections.hpp"

#include <algorithm>

namespace sonicsim::report {
namespace {

// "100 ms" for a queue time (the plan writes seconds), the number itself for the other metrics.
std::string threshold_text(const Json& plan, double threshold) {
  return plan.at("metric") == "queue_time_per_batch" ? significant(threshold * 1e3) + " ms"
                                                     : significant(threshold);
}

std::string interval_text(const Json& interval) {
  return significant(interval.at("mean").get<double>()) + " (" +
         significant(interval.at("ci95_low").get<double>()) + "-" +
         significant(interval.at("ci95_high").get<double>()) + ")";
}

TradeoffPoint point_of(const std::string& label, const std::string& role, const Json& hours,
                       const Json& event) {
  TradeoffPoint p;
  p.label = label;
  p.role = role;
  p.device_hours = hours.at("mean").get<double>();
  p.device_hours_low = hours.at("ci95_low").get<double>();
  p.device_hours_high = hours.at("ci95_high").get<double>();
  p.event_s = event.at("mean").get<double>();
  p.event_low_s = event.at("ci95_low").get<double>();
  p.event_high_s = event.at("ci95_high").get<double>();
  return p;
}

} // namespace

void add_autoscaler_plan_section(ReportDocument& document, const std::filesystem::path& dir) {
  const Json plan = read_json_file(dir / "plan_autoscaler.json");
  const double tolerance = plan.at("tolerance").get<double>();
  const std::string reference = plan.at("reference").get<std::string>();
  document.section("Autoscaler settings for " + plan.at("group").get<std::string>() + " (" +
                       plan.at("scenario").get<std::string>() + ")",
                   "plan_autoscaler.json");
  const auto& options = plan.at("options");
  std::string answer = "No setting tried keeps the event time within " + significant(100.0 * tolerance) +
                       " % of " + reference + ". " + plan.value("reason", std::string());
  // A point's label names what varies between the settings (the threshold when nothing does).
  const auto varies = [&options](const char* key) {
    return std::any_of(options.begin(), options.end(),
                       [&](const Json& o) { return o.at(key) != options.front().at(key); });
  };
  const bool min_varies = varies("min"), max_varies = varies("max"), delay_varies = varies("startup_delay_s");
  const bool threshold_shown = varies("threshold") || !(min_varies || max_varies || delay_varies);
  std::vector<TradeoffPoint> points{
      point_of(reference, "reference", plan.at("reference_device_hours"), plan.at("reference_event_mean_s"))};
  std::vector<std::vector<std::string>> rows{
      {"threshold", "min", "max", "start-up (s)", "event (s)", "event / reference", "device-h", "verdict"}};
  for (std::size_t i = 0; i < options.size(); ++i) {
    const Json& o = options[i];
    std::vector<std::string> parts;
    if (threshold_shown)
      parts.push_back("threshold " + threshold_text(plan, o.at("threshold").get<double>()));
    if (min_varies) parts.push_back("min " + std::to_string(o.at("min").get<int>()));
    if (max_varies) parts.push_back("max " + std::to_string(o.at("max").get<int>()));
    if (delay_varies)
      parts.push_back("start-up " + significant(o.at("startup_delay_s").get<double>()) + " s");
    std::string label;
    for (const auto& part : parts)
      label += (label.empty() ? "" : ", ") + part;
    const bool is_answer = !plan.at("answer").is_null() && plan.at("answer").get<std::size_t>() == i;
    const std::string verdict = o.at("verdict").get<std::string>();
    points.push_back(point_of(label, is_answer ? "the answer" : "setting: " + verdict, o.at("device_hours"),
                              o.at("event_mean_s")));
    rows.push_back({threshold_text(plan, o.at("threshold").get<double>()),
                    std::to_string(o.at("min").get<int>()), std::to_string(o.at("max").get<int>()),
                    significant(o.at("startup_delay_s").get<double>()), interval_text(o.at("event_mean_s")),
                    interval_text(o.at("event_ratio")), interval_text(o.at("device_hours")),
                    is_answer ? verdict + " (the answer)" : verdict});
    if (is_answer)
      answer = "The answer: threshold " + threshold_text(plan, o.at("threshold").get<double>()) + ", " +
               std::to_string(o.at("min").get<int>()) + "-" + std::to_string(o.at("max").get<int>()) +
               " pods, start-up " + significant(o.at("startup_delay_s").get<double>()) +
               " s: " + interval_text(o.at("device_hours")) + " device-hours against " +
               interval_text(plan.at("reference_device_hours")) + " for " + reference + ", its event time " +
               interval_text(o.at("event_ratio")) + " times the reference's.";
  }
  document.paragraph(answer + " Each setting and the reference ran on the same seeds (" +
                     std::to_string(plan.at("simulations").get<int>()) +
                     " simulations); intervals are 95 %. A setting meets when the upper bound of its event "
                     "time over the reference's is at most " +
                     significant(1.0 + tolerance) + ".");
  const double ceiling = plan.at("reference_event_mean_s").at("mean").get<double>() * (1.0 + tolerance);
  document.chart(tradeoff_chart("Device-hours against event time: each autoscaler setting and the reference",
                                points, ceiling,
                                "the reference's event time + " + significant(100.0 * tolerance, 2) + " %"));
  document.table(rows);
}

} // namespace sonicsim::report

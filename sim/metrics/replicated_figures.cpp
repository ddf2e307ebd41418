#include "sim/metrics/replicated_figures.hpp"

#include "sim/text/csv.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <ostream>
#include <stdexcept>

namespace sonicsim {
namespace {

// Collects values by figure name in first-seen order, so every replication's figures line up by name.
class FigureCollector {
public:
  void add(const std::string& name, double value) {
    if (!std::isfinite(value)) return; // an undefined figure (NaN) of one replication is not a value
    auto [it, inserted] = index_.emplace(name, figures_.size());
    if (inserted) figures_.push_back(ReplicatedFigure{name, {}, {}});
    figures_[it->second].values.push_back(value);
  }
  std::vector<ReplicatedFigure> finish() {
    for (auto& figure : figures_)
      figure.interval = confidence_interval_95(figure.values);
    return std::move(figures_);
  }

private:
  std::map<std::string, std::size_t> index_;
  std::vector<ReplicatedFigure> figures_;
};

void add_times(FigureCollector& figures, const std::string& prefix, const TimeStatistics& stats) {
  if (stats.count == 0) return;
  figures.add(prefix + ".mean_s", stats.mean_s);
  figures.add(prefix + ".p50_s", stats.p50_s);
  figures.add(prefix + ".p95_s", stats.p95_s);
  figures.add(prefix + ".p99_s", stats.p99_s);
}

void add_summary(FigureCollector& figures, const RunSummary& s) {
  for (const auto& [name, stats] : s.modules)
    add_times(figures, "modules." + name, stats);
  add_times(figures, "event", s.event);
  figures.add("events_per_s", s.events_per_s);
  figures.add("events_per_s_per_job", s.events_per_s_per_job);
  figures.add("inferences_per_s", s.inferences_per_s);
  figures.add("events_completed", static_cast<double>(s.events_completed));
  figures.add("events_failed", static_cast<double>(s.events_failed));
  figures.add("requests_rejected", static_cast<double>(s.requests_rejected));
  figures.add("gpu_utilisation", s.gpu_utilisation);
  figures.add("mean_executed_batch", s.mean_executed_batch);
  figures.add("mean_request_size", s.mean_request_size);
  figures.add("mean_queue_wait_s", s.mean_queue_wait_s);
  for (const auto& group : s.group_usage) {
    const std::string prefix = "groups." + group.name;
    figures.add(prefix + ".device_utilisation", group.device_utilisation);
    figures.add(prefix + ".host_utilisation", group.host_utilisation);
    figures.add(prefix + ".nic_in_utilisation", group.nic_in_utilisation);
  }
  for (const auto& model : s.model_usage)
    figures.add("models." + model.model + ".share_of_devices", model.share_of_devices);
  for (const auto& link : s.links)
    figures.add("links." + link.name + ".utilisation", link.utilisation);
  figures.add("bottleneck_utilisation", s.bottleneck.utilisation);
  if (s.direct_inference) {
    figures.add("direct_inference.events_per_s_per_job", s.direct_inference->events_per_s_per_job);
    figures.add("direct_inference.gain", s.direct_inference->gain);
  }
  if (s.campaign) {
    const CampaignSummary& c = *s.campaign;
    figures.add("campaign.mean_running_jobs", c.mean_running_jobs);
    figures.add("campaign.mean_outbound_gbps", c.mean_outbound_gbps);
    if (c.fit_valid && c.fit_determined) {
      figures.add("campaign.slope_gbps_per_job", c.slope_gbps_per_job);
      figures.add("campaign.intercept_gbps", c.intercept_gbps);
    }
  }
}

} // namespace

ReplicatedRun replicate(const std::vector<std::uint64_t>& seeds,
                        const std::vector<RunSummary>& replications) {
  ReplicatedRun run;
  run.seeds = seeds;
  FigureCollector figures;
  std::map<std::string, int> bottlenecks;
  for (const auto& summary : replications) {
    add_summary(figures, summary);
    ++bottlenecks[summary.bottleneck.sentence()];
  }
  run.figures = figures.finish();
  run.bottlenecks.assign(bottlenecks.begin(), bottlenecks.end());
  std::stable_sort(run.bottlenecks.begin(), run.bottlenecks.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return run;
}

const ReplicatedFigure& figure(const ReplicatedRun& run, const std::string& name) {
  for (const auto& f : run.figures)
    if (f.name == name) return f;
  throw std::out_of_range("no replicated figure '" + name + "'");
}

nlohmann::ordered_json replicated_to_json(const ReplicatedRun& run) {
  nlohmann::ordered_json out;
  out["replications"] = run.seeds.size();
  out["seeds"] = run.seeds;
  out["interval"] = "95 % confidence interval of the mean over independent replications, Student t with "
                    "n - 1 degrees of freedom";
  auto& figures = out["figures"] = nlohmann::ordered_json::object();
  for (const auto& f : run.figures) {
    const auto& ci = f.interval;
    figures[f.name] = {{"mean", ci.mean},   {"half_width", ci.half_width},
                       {"low", ci.low()},   {"high", ci.high()},
                       {"sd", ci.sd},       {"n", ci.n},
                       {"values", f.values}};
  }
  auto& bottlenecks = out["bottlenecks"] = nlohmann::ordered_json::object();
  for (const auto& [name, count] : run.bottlenecks)
    bottlenecks[name] = count;
  return out;
}

void write_replicated_csv(std::ostream& out, const ReplicatedRun& run) {
  out << "figure,mean,half_width,low,high,sd,n\n";
  for (const auto& f : run.figures) {
    const auto& ci = f.interval;
    out << csv_field(f.name) << "," << csv_number(ci.mean) << "," << csv_number(ci.half_width) << ","
        << csv_number(ci.low()) << "," << csv_number(ci.high()) << "," << csv_number(ci.sd) << "," << ci.n
        << "\n";
  }
}

} // namespace sonicsim

#include "sim/metrics/replicated_figures.hpp"

#include "sim/scenario/input_error.hpp"
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

// The table's figures first (each module's own, then the run's), then the figures of named resources.
void add_summary(FigureCollector& figures, const RunSummary& s, const FigureContext& context) {
  for (const auto& [module, stats] : s.modules) {
    if (stats.count == 0) continue;
    for (const Figure figure :
         {Figure::module_mean_s, Figure::module_p50_s, Figure::module_p95_s, Figure::module_p99_s})
      figures.add(std::string(spec_of(figure).name) + ":" + module,
                  *value_of(figure, s, FigureContext{{module}, nullptr, 0.0}));
  }
  for (const auto& spec : figure_table()) {
    if (spec.per_module) continue;
    if (const auto value = value_of(spec.figure, s, context)) figures.add(spec.name, *value);
  }
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

ReplicatedRun replicate(const std::vector<std::uint64_t>& seeds, const std::vector<RunSummary>& replications,
                        const FigureContext& context) {
  ReplicatedRun run;
  run.seeds = seeds;
  FigureCollector figures;
  std::map<std::string, int> bottlenecks;
  std::vector<Bottleneck> named;
  for (const auto& summary : replications) {
    add_summary(figures, summary, context);
    ++bottlenecks[summary.bottleneck.sentence()];
    named.push_back(summary.bottleneck);
  }
  run.bottleneck = vote_bottleneck(named);
  run.figures = figures.finish();
  run.bottlenecks.assign(bottlenecks.begin(), bottlenecks.end());
  std::stable_sort(run.bottlenecks.begin(), run.bottlenecks.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return run;
}

const ReplicatedFigure& figure(const ReplicatedRun& run, const std::string& name) {
  for (const auto& f : run.figures)
    if (f.name == name) return f;
  try { // a name from before the figure table
    const std::string current = parse_figure_name(name, "figure").text();
    for (const auto& f : run.figures)
      if (f.name == current) return f;
  } catch (const InputError&) {
  }
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
  out["bottleneck"] = {{"resource", run.bottleneck.bottleneck.sentence()},
                       {"utilisation", run.bottleneck.bottleneck.utilisation},
                       {"votes", run.bottleneck.votes}};
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

#include "sim/planning/planner.hpp"

#include "sim/analysis/analytic_curve.hpp"
#include "sim/metrics/number_text.hpp"
#include "sim/planning/confident_search.hpp"
#include "sim/scenario/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <utility>

namespace sonicsim::planning {
namespace {

// The first number of replications, and the next when a candidate is undecided.
int next_replications(int have, int first, int most) {
  return have == 0 ? first : std::min(most, have + first);
}

} // namespace

// A run's decision by the confidence intervals alone: a decision taken by the mean inside the indifference
// zone counts as undecided here. The range an answer is reported with comes from these.
Decision strict_decision(const PlanRun& run) {
  if (!run.error.empty()) return Decision::no;
  bool yes = true;
  for (const auto& check : run.checks) {
    if (!monotone_in_devices(check.target)) continue;
    if (check.decision == Decision::no && !check.by_mean) return Decision::no;
    yes = yes && check.decision == Decision::yes && !check.by_mean;
  }
  return yes ? Decision::yes : Decision::undecided;
}

// One (device type, pod NIC) searched: its option, its runs and what the answer needs for the report.
struct OptionSearch {
  PlanOption option;
  std::optional<PlanRuns> runs;
  std::optional<PlanRun> answer_run, first_failing;
  bool impossible = false;
  bool budget_exhausted = false;
  int job_step = 1;
};

class Planner::Search {
public:
  Search(PlannerSettings settings, Scenario scenario, SimulateBatch simulate)
      : settings_(std::move(settings)), scenario_(std::move(scenario)), simulate_(std::move(simulate)) {
    if (settings_.targets.empty()) settings_.targets.push_back(relative_module_target(0.10));
    if (settings_.max_replications < settings_.replications)
      settings_.max_replications = settings_.replications;
    const auto parameters = analysis::derive_parameters(scenario_);
    modules_ = parameters.accelerated_modules;
    inferences_per_event_ = parameters.inferences;
    plan_.scenario = scenario_.name;
    plan_.variant = settings_.variant;
    plan_.seed = scenario_.seed;
    plan_.targets = settings_.targets;
    plan_.max_gpus_per_pod = settings_.max_gpus_per_pod;
    plan_.replications = settings_.replications;
    plan_.max_replications = settings_.max_replications;
    plan_.indifference = settings_.indifference;
    for (const auto& target : settings_.targets)
      if (target.relative) bracket_tolerance_ = target.limit - 1.0;
  }

  Plan fewest_gpus(int jobs) {
    plan_.mode = Plan::Mode::fewest_gpus;
    plan_.requested = jobs;
    plan_.jobs = jobs;
    return search_options(
        [&](const std::string& type, double nic) { return search_fewest(type, nic, jobs); });
  }

  Plan most_jobs(int gpus) {
    plan_.mode = Plan::Mode::most_jobs;
    plan_.requested = gpus;
    return search_options(
        [&](const std::string& type, double nic) { return search_most_jobs(type, nic, gpus); });
  }

  Plan per_group(int jobs);

private:
  // One search per (device type, pod NIC), then the best of them.
  template <typename SearchOne> Plan search_options(SearchOne search_one) {
    describe_space();
    std::vector<OptionSearch> searches;
    for (const auto& type : device_types())
      for (const double nic : nics())
        searches.push_back(search_one(type, nic));
    return conclude(searches);
  }

  const ServerGroup& group() const { return planned_group(scenario_); }

  std::vector<std::string> device_types() const {
    return settings_.device_types.empty() ? std::vector<std::string>{group().device_type}
                                          : settings_.device_types;
  }
  std::vector<double> nics() const {
    return settings_.nics_bps.empty() ? std::vector<double>{group().nic_bandwidth_bps} : settings_.nics_bps;
  }

  void describe_space() {
    const ServerGroup& g = group();
    for (const auto& [name, model] : scenario_.models)
      if (std::find(model.deploy.groups.begin(), model.deploy.groups.end(), g.name) !=
          model.deploy.groups.end())
        for (const auto& type : device_types())
          if (!model.throughput_by_device.count(type))
            throw InputError("--device-types " + type + ": model '" + name +
                             "' has no throughput curve for " + type + " (models." + name + ".throughput." +
                             type + "); its curves: " + curve_names(model));
    std::string types, nic_list;
    for (const auto& type : device_types())
      types += (types.empty() ? "" : ", ") + type;
    for (const double nic : nics())
      nic_list += (nic_list.empty() ? "" : ", ") + gbps_text(nic);
    plan_.searched.push_back(plan_.mode == Plan::Mode::most_jobs
                                 ? "jobs on a grid of 2 % of the analytic estimate"
                                 : "GPU count 1.." + std::to_string(settings_.max_gpus) +
                                       " in equal pods of at most " +
                                       std::to_string(settings_.max_gpus_per_pod));
    plan_.searched.push_back(
        "device type: " + types +
        (settings_.device_types.empty() ? " (the scenario's; --device-types to search others)" : ""));
    plan_.searched.push_back(
        "pod NIC: " + nic_list +
        (settings_.nics_bps.empty() ? " (the scenario's; --nics to search others)" : ""));
    const auto& p = scenario_.platform;
    plan_.held_fixed.push_back(
        "site switch " + gbps_text(p.site_switch.bandwidth_bps) +
        (p.site_switch.background.peak_bps() > 0.0
             ? " with up to " + gbps_text(p.site_switch.background.peak_bps()) + " background"
             : ""));
    plan_.held_fixed.push_back("WAN " + gbps_text(p.wan.bandwidth_bps) + ", " +
                               significant(p.wan.rtt_s * 1e3) + " ms round trip");
    plan_.held_fixed.push_back("host cores " + std::to_string(g.host_cores) + " per pod");
    plan_.held_fixed.push_back("worker NICs and job CPUs as the scenario has them");
    if (settings_.device_types.empty()) plan_.held_fixed.push_back("device type " + g.device_type);
    if (settings_.nics_bps.empty()) plan_.held_fixed.push_back("pod NIC " + gbps_text(g.nic_bandwidth_bps));
  }

  static std::string curve_names(const Model& model) {
    std::string out;
    for (const auto& entry : model.throughput_by_device)
      out += (out.empty() ? "" : ", ") + entry.first;
    return out;
  }

  static int reference_job_count(int jobs, double knee_jobs) {
    const int tenth = static_cast<int>(std::lround(reference_load_fraction * knee_jobs));
    return std::max(1, std::min(jobs, std::max(min_reference_jobs, tenth)));
  }

  // A link the pods cannot relieve (site switch, WAN) full before the jobs fit: no number of GPUs helps.
  void check_fixed_network(const LayoutAnalysis& analysis, int jobs) const {
    const auto& fixed = fixed_network_limit(analysis);
    const double usable_jobs = saturation_threshold * fixed.jobs_at_saturation;
    if (jobs <= usable_jobs) return;
    char text[512];
    std::snprintf(
        text, sizeof text,
        "impossible target: the %s (%s) saturates first: %d jobs at %.3g Gb/event every %.4g s need "
        "%.3g Gb/s, but it fills at %.0f jobs (%.0f %% busy at %.0f), so no number of GPUs serves "
        "%d jobs; give the network more capacity, compress the inputs or plan for fewer jobs",
        fixed.resource.c_str(), fixed.capacity.c_str(), jobs,
        analysis.job_traffic_bps * analysis.t_ideal_s / 1e9, analysis.t_ideal_s,
        jobs * analysis.job_traffic_bps / 1e9, fixed.jobs_at_saturation, saturation_threshold * 100.0,
        usable_jobs, jobs);
    throw InputError(text);
  }

  PlanRuns make_runs() const {
    return PlanRuns(scenario_, simulate_, settings_.targets, settings_.indifference, {}, modules_,
                    inferences_per_event_, settings_.progress);
  }

  // Judges candidate points: the first time with `replications`, then with more while undecided.
  std::vector<Judgement> judge_points(PlanRuns& runs, const std::vector<RunPoint>& points,
                                      bool true_when_failing) {
    std::vector<std::pair<RunPoint, int>> wanted;
    for (const auto& point : points)
      wanted.emplace_back(point, next_replications(runs.replications_of(point), settings_.replications,
                                                   settings_.max_replications));
    const auto judged = runs.ensure(wanted);
    std::vector<Judgement> out;
    for (const auto& run : judged) {
      Judgement j;
      j.decision = run.decision;
      if (true_when_failing && run.decision != Decision::undecided)
        j.decision = run.decision == Decision::no ? Decision::yes : Decision::no;
      j.can_refine = run.decision == Decision::undecided &&
                     static_cast<int>(run.replications.size()) < settings_.max_replications;
      out.push_back(j);
    }
    return out;
  }

  // A target no layout can meet, seen on the low-load reference: the reason, or empty.
  std::string impossible_reason(const PlanRun& reference, int jobs) const {
    const auto& r = reference;
    for (const auto& target : settings_.targets) {
      if (target.relative) continue;
      char text[512];
      auto low_load = [&](const char* what, const ConfidenceInterval& value, const char* set_by) {
        if (value.low() <= target.limit) return std::string();
        std::snprintf(
            text, sizeof text,
            "--target %s is impossible: at low load (%d jobs, no queueing) the %s already takes %.4g s "
            "(95 %% interval %.4g-%.4g s); %s, not the number of GPUs",
            target.text.c_str(), r.jobs, what, value.mean, value.low(), value.high(), set_by);
        return std::string(text);
      };
      std::string reason;
      if (target.observable == Observable::module_time)
        reason = low_load(
            "accelerated module", r.module_s,
            "its preprocessing on the job's CPU, the transfer and the GPU time of one request set it");
      else if (target.observable == Observable::event_time)
        reason = low_load("event", r.event_s, "the jobs' own CPU time sets it");
      else if (target.observable == Observable::event_time_p95)
        reason =
            low_load("event's 95th percentile", interval_of(r.replications, &ReplicationFigures::event_p95_s),
                     "the jobs' own CPU time sets it");
      else if (target.observable == Observable::throughput && plan_.mode != Plan::Mode::most_jobs) {
        const auto threads = scenario_.workload.threads;
        const double ceiling = jobs * threads / r.event_s.low();
        if (ceiling < target.limit) {
          std::snprintf(
              text, sizeof text,
              "--target %s is impossible: %d jobs x %d thread(s) at the low-load event time %.4g s give "
              "at most %.4g events/s; the jobs themselves (not the GPUs) stop it: plan for more jobs",
              target.text.c_str(), jobs, threads, r.event_s.low(), ceiling);
          reason = text;
        }
      }
      if (!reason.empty()) return reason;
    }
    return "";
  }

  // The first layout whose MVA module time at `jobs` is within the bracket tolerance.
  std::size_t analytic_start(const std::vector<PodLayout>& layouts, int jobs, double low_load_s) const {
    for (std::size_t i = 0; i < layouts.size(); ++i) {
      if (analyse_layout(scenario_, layouts[i]).first().jobs_at_saturation <
          jobs * bracket_min_capacity_fraction)
        continue;
      if (mva_module_s(scenario_, layouts[i], jobs) <= (1.0 + bracket_tolerance_) * low_load_s) return i;
    }
    return layouts.size() - 1;
  }

  std::vector<PodLayout> layouts_for(const std::string& type, double nic, int min_pods) const {
    auto layouts = candidate_layouts(min_pods, settings_.max_gpus_per_pod, settings_.max_gpus);
    for (auto& layout : layouts) {
      layout.device_type = type;
      layout.nic_bps = nic;
    }
    return layouts;
  }

  OptionSearch search_fewest(const std::string& type, double nic, int jobs) {
    OptionSearch out;
    out.option.device_type = type;
    out.option.nic_bps = nic;
    const PodLayout one{1, 1, type, nic};
    const auto one_gpu = analyse_layout(scenario_, one);
    check_fixed_network(one_gpu, jobs);
    const int min_pods = pods_for_network(one_gpu, jobs, saturation_threshold);
    if (plan_.layout_rule.empty()) plan_.layout_rule = layout_rule(settings_.max_gpus_per_pod, min_pods);
    const auto layouts = layouts_for(type, nic, min_pods);
    if (layouts.empty()) {
      out.option.reason = "no layout of at most " + std::to_string(settings_.max_gpus) + " GPUs has the " +
                          std::to_string(min_pods) + " pods the " + gbps_text(nic) + " pod NICs need for " +
                          std::to_string(jobs) + " jobs; raise --max-gpus";
      return out;
    }
    if (plan_.analytic_module_low_load_s == 0.0) plan_.analytic_module_low_load_s = one_gpu.module_low_load_s;
    const std::size_t start = analytic_start(layouts, jobs, one_gpu.module_low_load_s);
    out.option.analytic_layout = layouts[start];
    {
      const PodLayout fast_one{1, 1, type, nic * fast_nic_factor};
      const auto fast = analyse_layout(scenario_, fast_one);
      const auto fast_layouts =
          layouts_for(type, nic * fast_nic_factor, pods_for_network(fast, jobs, saturation_threshold));
      if (!fast_layouts.empty())
        out.option.analytic_layout_fast_nic =
            fast_layouts[analytic_start(fast_layouts, jobs, fast.module_low_load_s)];
    }
    const PodLayout roomy = layouts[std::min(start + 1, layouts.size() - 1)];
    out.runs.emplace(make_runs());
    PlanRuns& runs = *out.runs;
    runs.set_reference(RunPoint{
        roomy, {}, reference_job_count(jobs, analyse_layout(scenario_, roomy).first().jobs_at_saturation)});
    runs.ensure({}, settings_.replications);
    if (const auto reason = impossible_reason(runs.reference(), jobs); !reason.empty()) {
      out.option.reason = reason;
      out.impossible = true;
      return out;
    }
    auto point = [&](int index) { return RunPoint{layouts[static_cast<std::size_t>(index)], {}, jobs}; };
    const auto search =
        find_first_true_confidently(0, static_cast<int>(layouts.size()) - 1, static_cast<int>(start),
                                    settings_.parallel, [&](const std::vector<int>& indices) {
                                      std::vector<RunPoint> points;
                                      for (const int i : indices)
                                        points.push_back(point(i));
                                      return judge_points(runs, points, false);
                                    });
    out.budget_exhausted = search.budget_exhausted;
    if (!search.first_true) {
      const auto candidates = runs.candidates();
      out.option.reason =
          "no layout of up to " + std::to_string(layouts.back().gpus()) + " " + type +
          " meets the targets at " + std::to_string(jobs) + " jobs" +
          (candidates.empty() ? ""
                              : " (the largest tried is limited by " + candidates.back().bottleneck + ")") +
          "; raise --max-gpus or relax the targets";
      return out;
    }
    out.option.found = true;
    out.option.layout = layouts[static_cast<std::size_t>(*search.first_true)];
    {
      // The range: above the highest index failing by its interval, up to the lowest meeting by it.
      int low = 0, high = *search.first_true;
      std::optional<int> strict_high;
      for (const auto& [index, decision] : search.decisions) {
        const auto strict = strict_decision(*runs.find(point(index)));
        if (strict == Decision::no && index < *search.first_true) low = std::max(low, index + 1);
        if (strict == Decision::yes && index >= *search.first_true && !strict_high) strict_high = index;
      }
      if (strict_high) high = *strict_high;
      if (low != *search.first_true) out.option.low = layouts[static_cast<std::size_t>(low)];
      if (high != *search.first_true) out.option.high = layouts[static_cast<std::size_t>(high)];
    }
    out.answer_run = *runs.find(point(*search.first_true));
    if (search.first_possible > 0)
      if (const auto* below = runs.find(point(search.first_possible - 1))) out.first_failing = *below;
    out.option.cost_usd_per_event = cost_interval(*out.answer_run);
    return out;
  }

  int analytic_most_jobs(const PodLayout& layout, const LayoutAnalysis& analysis) const {
    const auto parameters = analysis::derive_parameters(with_layout(scenario_, layout));
    const int limit = static_cast<int>(std::ceil(mva_curve_extent * analysis.first().jobs_at_saturation)) + 2;
    std::vector<int> counts;
    for (int n = 1; n <= limit; ++n)
      counts.push_back(n);
    const auto curve = analysis::analytic_curve(parameters, counts);
    int best = 1;
    for (const auto& point : curve)
      if (point.mva_module_s <= (1.0 + bracket_tolerance_) * curve.front().mva_module_s) best = point.jobs;
    const double network_jobs = saturation_threshold * analysis.network_limit().jobs_at_saturation;
    return std::max(1, std::min(best, static_cast<int>(network_jobs)));
  }

  OptionSearch search_most_jobs(const std::string& type, double nic, int gpus) {
    OptionSearch out;
    out.option.device_type = type;
    out.option.nic_bps = nic;
    auto layout = layout_for_gpus(gpus, 1, settings_.max_gpus_per_pod);
    layout->device_type = type;
    layout->nic_bps = nic;
    auto analysis = analyse_layout(scenario_, *layout);
    int estimate = analytic_most_jobs(*layout, analysis);
    // Enough pods that their NICs do not stop the GPUs short, when the GPUs can be split that far.
    const int min_pods = pods_for_network(analysis, estimate, saturation_threshold);
    if (min_pods > layout->pods) {
      layout = layout_for_gpus(gpus, std::min(min_pods, gpus), settings_.max_gpus_per_pod);
      layout->device_type = type;
      layout->nic_bps = nic;
      analysis = analyse_layout(scenario_, *layout);
      estimate = analytic_most_jobs(*layout, analysis);
    }
    if (plan_.layout_rule.empty()) plan_.layout_rule = layout_rule(settings_.max_gpus_per_pod, layout->pods);
    if (plan_.analytic_module_low_load_s == 0.0)
      plan_.analytic_module_low_load_s = analysis.module_low_load_s;
    out.option.layout = *layout;
    out.option.analytic_layout = *layout;
    out.option.analytic_jobs = estimate;
    const int step = std::max(1, static_cast<int>(std::lround(job_grid_fraction * estimate)));
    out.job_step = step;
    out.runs.emplace(make_runs());
    PlanRuns& runs = *out.runs;
    runs.set_reference(
        RunPoint{*layout, {}, reference_job_count(estimate, analysis.first().jobs_at_saturation)});
    runs.ensure({}, settings_.replications);
    if (const auto reason = impossible_reason(runs.reference(), estimate); !reason.empty()) {
      out.option.reason = reason;
      out.impossible = true;
      return out;
    }
    auto point = [&](int k) { return RunPoint{*layout, {}, k * step}; };
    const int last = static_cast<int>(std::ceil(job_search_ceiling * estimate / step)) + 2;
    // True = the targets fail: more jobs never help.
    const auto search = find_first_true_confidently(1, last, estimate / step + 1, settings_.parallel,
                                                    [&](const std::vector<int>& indices) {
                                                      std::vector<RunPoint> points;
                                                      for (const int k : indices)
                                                        points.push_back(point(k));
                                                      return judge_points(runs, points, true);
                                                    });
    out.budget_exhausted = search.budget_exhausted;
    const int confirmed = search.first_possible - 1; // the highest index known to meet
    if (confirmed < 1) {
      out.option.reason = "even " + std::to_string(step) + " jobs are not confirmed to meet the targets";
      return out;
    }
    out.option.found = true;
    out.option.jobs = confirmed * step;
    {
      // The range: from the highest index meeting by its interval to below the lowest failing by it.
      int low = confirmed, high = search.first_true ? *search.first_true - 1 : last;
      for (const auto& [index, decision] : search.decisions) {
        const auto strict = strict_decision(*runs.find(point(index)));
        if (index <= confirmed && strict != Decision::yes) low = std::min(low, index - 1);
      }
      for (const auto& [index, decision] : search.decisions)
        if (index > confirmed && strict_decision(*runs.find(point(index))) == Decision::no) {
          high = std::max(confirmed, index - 1);
          break;
        }
      out.option.jobs_low = std::max(0, low) * step;
      out.option.jobs_high = high * step;
    }
    out.answer_run = *runs.find(point(confirmed));
    if (search.first_true)
      if (const auto* above = runs.find(point(*search.first_true))) out.first_failing = *above;
    out.option.cost_usd_per_event = cost_interval(*out.answer_run);
    return out;
  }

  static std::optional<ConfidenceInterval> cost_interval(const PlanRun& run) {
    std::vector<double> values;
    for (const auto& r : run.replications)
      if (r.cost_usd_per_event) values.push_back(*r.cost_usd_per_event);
    if (values.size() != run.replications.size() || values.empty()) return std::nullopt;
    return confidence_interval_95(values);
  }

  static bool costs_differ(const OptionSearch& a, const OptionSearch& b) {
    const auto& x = a.option.cost_usd_per_event;
    const auto& y = b.option.cost_usd_per_event;
    return x && y && (x->high() < y->low() || y->high() < x->low());
  }

  // The better of two found options: cheaper per event when both have prices and their intervals do not
  // overlap, else fewer devices (fewest) or more jobs (most jobs); on a tie the one searched first (the
  // scenario's own device type and NIC come first in their lists when given).
  bool better(const OptionSearch& a, const OptionSearch& b) const {
    if (costs_differ(a, b)) return a.option.cost_usd_per_event->mean < b.option.cost_usd_per_event->mean;
    if (plan_.mode == Plan::Mode::most_jobs) return a.option.jobs > b.option.jobs;
    return a.option.layout.gpus() < b.option.layout.gpus();
  }

  Plan conclude(std::vector<OptionSearch>& searches) {
    std::optional<std::size_t> best;
    for (std::size_t k = 0; k < searches.size(); ++k)
      if (searches[k].option.found && (!best || better(searches[k], searches[*best]))) best = k;
    for (auto& s : searches) {
      if (s.runs) {
        plan_.references.push_back(s.runs->reference());
        for (const auto& run : s.runs->candidates())
          plan_.runs.push_back(run);
        plan_.batches += s.runs->batches();
        plan_.simulations += s.runs->simulations();
      }
    }
    if (!best) {
      // Every option failed: report the first, impossible ones first.
      std::size_t pick = 0;
      for (std::size_t k = 0; k < searches.size(); ++k)
        if (searches[k].impossible) {
          pick = k;
          break;
        }
      for (auto& s : searches)
        plan_.options.push_back(s.option);
      plan_.chosen = pick;
      plan_.impossible = searches[pick].impossible;
      plan_.not_found_reason = searches[pick].option.reason;
      if (searches[pick].runs) plan_.reference = searches[pick].runs->reference();
      return plan_;
    }
    OptionSearch& chosen = searches[*best];
    for (std::size_t k = 0; k < searches.size(); ++k) {
      auto& s = searches[k];
      if (k != *best && s.option.found) s.option.reason = why_lost(s, chosen);
      plan_.options.push_back(s.option);
    }
    plan_.chosen = *best;
    plan_.found = true;
    plan_.reference = chosen.runs->reference();
    plan_.budget_exhausted = chosen.budget_exhausted;
    plan_.layout = chosen.option.layout;
    plan_.layout_low = chosen.option.low;
    plan_.layout_high = chosen.option.high;
    plan_.analytic_layout = chosen.option.analytic_layout;
    plan_.analytic_jobs = chosen.option.analytic_jobs;
    plan_.job_step = chosen.job_step;
    if (plan_.mode == Plan::Mode::most_jobs) {
      plan_.jobs = chosen.option.jobs;
      plan_.jobs_low = chosen.option.jobs_low;
      plan_.jobs_high = chosen.option.jobs_high;
    }
    plan_.answer_run = chosen.answer_run;
    plan_.first_failing = chosen.first_failing;
    finish();
    return plan_;
  }

  std::string why_lost(const OptionSearch& lost, const OptionSearch& chosen) const {
    char text[256];
    if (costs_differ(lost, chosen)) {
      std::snprintf(text, sizeof text, "costs %.4g USD per event, %+.1f %% against the chosen %.4g",
                    lost.option.cost_usd_per_event->mean,
                    (lost.option.cost_usd_per_event->mean / chosen.option.cost_usd_per_event->mean - 1.0) *
                        100.0,
                    chosen.option.cost_usd_per_event->mean);
      return text;
    }
    const std::string same_cost = lost.option.cost_usd_per_event ? "the same cost within intervals; " : "";
    if (plan_.mode == Plan::Mode::most_jobs && lost.option.jobs != chosen.option.jobs)
      std::snprintf(text, sizeof text, "%sserves %d jobs against %d", same_cost.c_str(), lost.option.jobs,
                    chosen.option.jobs);
    else if (plan_.mode != Plan::Mode::most_jobs && lost.option.layout.gpus() != chosen.option.layout.gpus())
      std::snprintf(text, sizeof text, "%sneeds %d devices against %d", same_cost.c_str(),
                    lost.option.layout.gpus(), chosen.option.layout.gpus());
    else
      std::snprintf(text, sizeof text, "%sa tie, the option listed first is chosen", same_cost.c_str());
    return text;
  }

  void finish() {
    plan_.analysis = analyse_layout(scenario_, plan_.layout);
    if (!plan_.answer_run) return;
    const auto& answer = *plan_.answer_run;
    std::vector<double> ratios, knees;
    for (std::size_t r = 0; r < answer.replications.size() && r < plan_.reference.replications.size(); ++r) {
      const double ratio =
          cpu_gpu_ratio(plan_.reference.replications[r].event_s, answer.replications[r].gpu_s_per_event);
      if (!(ratio > 0.0)) continue;
      ratios.push_back(ratio);
      knees.push_back(plan_.mode == Plan::Mode::fewest_gpus ? plan_.jobs / ratio
                                                            : ratio * plan_.layout.gpus());
    }
    plan_.ratio_simulated = confidence_interval_95(ratios);
    plan_.knee_sizing = confidence_interval_95(knees);
    plan_.cost_usd_per_event = cost_interval(answer);
    for (const auto& check : answer.checks)
      if (!monotone_in_devices(check.target)) {
        if (check.decision == Decision::no) {
          plan_.found = false;
          char text[512];
          std::snprintf(
              text, sizeof text,
              "target %s not met: the answer of the other targets costs %.4g USD per event (95 %% "
              "interval %.4g-%.4g); %s",
              check.target.text.c_str(), check.value.mean, check.value.low(), check.value.high(),
              plan_.mode == Plan::Mode::most_jobs
                  ? "fewer jobs per device only raise it: a cheaper device type or job slot is needed"
                  : "more devices only raise it once the jobs are served: a cheaper device type or "
                    "job slot is needed");
          plan_.not_found_reason = text;
          plan_.impossible = true;
        }
      }
  }

  PlannerSettings settings_;
  Scenario scenario_;
  SimulateBatch simulate_;
  std::vector<std::string> modules_;
  double inferences_per_event_ = 0.0;
  double bracket_tolerance_ = 0.10;
  Plan plan_;
};

Plan Planner::Search::per_group(int jobs) {
  plan_.mode = Plan::Mode::per_group;
  plan_.requested = jobs;
  plan_.jobs = jobs;
  // The groups sized: every group with devices that is not a fallback on the client nodes.
  std::map<std::string, std::vector<std::string>> modules_by_group;
  std::map<std::string, int> counts;
  for (const auto& g : scenario_.platform.server_groups) {
    if (g.on_client_nodes || g.devices_per_pod == 0) continue;
    for (const auto& module : scenario_.workload.pipeline) {
      if (!module.served()) continue;
      const auto& model = scenario_.models.at(module.model);
      if (std::find(model.deploy.groups.begin(), model.deploy.groups.end(), g.name) !=
          model.deploy.groups.end())
        modules_by_group[g.name].push_back(module.name);
    }
    if (modules_by_group.count(g.name)) counts[g.name] = g.devices();
  }
  if (counts.empty())
    throw InputError(scenario_.source_file +
                     ": no server group with devices serves a remote_inference module");
  plan_.searched.push_back("devices per group (one model or the models it serves), each group in pods of its "
                           "own devices per pod; the groups searched in turn with the others at their latest "
                           "counts, until no count changes");
  plan_.held_fixed.push_back("device types, pod NICs and host cores of every group as the scenario has them");
  plan_.held_fixed.push_back("site switch " + gbps_text(scenario_.platform.site_switch.bandwidth_bps) +
                             ", WAN " + gbps_text(scenario_.platform.wan.bandwidth_bps));
  PlanRuns runs(scenario_, simulate_, settings_.targets, settings_.indifference, modules_by_group, modules_,
                inferences_per_event_, settings_.progress);
  // The reference: a tenth of the jobs on the scenario's own layout (at least min_reference_jobs).
  RunPoint reference{
      PodLayout{}, counts,
      std::max(min_reference_jobs, static_cast<int>(std::lround(jobs * reference_load_fraction)))};
  runs.set_reference(reference);
  runs.ensure({}, settings_.replications);
  for (auto& [name, count] : counts) {
    GroupPlan gp;
    gp.group = name;
    gp.device_type = scenario_.platform.group(name)->device_type;
    gp.modules = modules_by_group[name];
    gp.start_devices = count;
    gp.devices_per_pod = scenario_.platform.group(name)->devices_per_pod;
    plan_.groups.push_back(gp);
  }
  for (int pass = 0; pass < max_group_passes; ++pass) {
    bool changed = false;
    for (auto& gp : plan_.groups) {
      const int before = counts[gp.group];
      auto point = [&](int devices) {
        RunPoint p{PodLayout{}, counts, jobs};
        p.group_devices[gp.group] = devices;
        return p;
      };
      // A group's own judgement: only its modules' checks (and the events failed) decide.
      const auto search = find_first_true_confidently(
          1, settings_.max_gpus, before, settings_.parallel, [&](const std::vector<int>& indices) {
            std::vector<std::pair<RunPoint, int>> wanted;
            for (const int d : indices)
              wanted.emplace_back(point(d),
                                  next_replications(runs.replications_of(point(d)), settings_.replications,
                                                    settings_.max_replications));
            const auto judged = runs.ensure(wanted);
            std::vector<Judgement> out;
            for (const auto& run : judged) {
              bool no = !run.error.empty(), yes = true;
              for (const auto& check : run.checks)
                if (check.scope == gp.group) {
                  no = no || check.decision == Decision::no;
                  yes = yes && check.decision == Decision::yes;
                }
              Judgement j;
              j.decision = no ? Decision::no : (yes ? Decision::yes : Decision::undecided);
              j.can_refine = j.decision == Decision::undecided &&
                             static_cast<int>(run.replications.size()) < settings_.max_replications;
              out.push_back(j);
            }
            return out;
          });
      if (!search.first_true) {
        gp.found = false;
        gp.reason =
            "no count up to " + std::to_string(settings_.max_gpus) + " meets the targets; raise --max-gpus";
        plan_.not_found_reason = "group " + gp.group + ": " + gp.reason;
        plan_.references.push_back(runs.reference());
        plan_.runs = runs.candidates();
        plan_.batches = runs.batches();
        plan_.simulations = runs.simulations();
        return plan_;
      }
      gp.found = true;
      gp.devices = *search.first_true;
      gp.devices_low = search.first_possible;
      plan_.budget_exhausted = plan_.budget_exhausted || search.budget_exhausted;
      counts[gp.group] = gp.devices;
      changed = changed || gp.devices != before;
    }
    if (!changed) break;
  }
  plan_.found = true;
  const RunPoint answer{PodLayout{}, counts, jobs};
  plan_.answer_run =
      runs.ensure({{answer, std::max(settings_.replications, runs.replications_of(answer))}}).front();
  plan_.reference = runs.reference();
  plan_.references.push_back(runs.reference());
  plan_.runs = runs.candidates();
  plan_.batches = runs.batches();
  plan_.simulations = runs.simulations();
  plan_.cost_usd_per_event = cost_interval(*plan_.answer_run);
  plan_.station_saturation = station_limits(runs.scenario_at(answer, scenario_.seed));
  return plan_;
}

Planner::Planner(PlannerSettings settings, Scenario scenario, SimulateBatch simulate)
    : search_(std::make_unique<Search>(std::move(settings), std::move(scenario), std::move(simulate))) {}

Planner::~Planner() = default;

Plan Planner::fewest_gpus(int jobs) {
  return search_->fewest_gpus(jobs);
}

Plan Planner::most_jobs(int gpus) {
  return search_->most_jobs(gpus);
}

Plan Planner::per_group(int jobs) {
  return search_->per_group(jobs);
}

} // namespace sonicsim::planning

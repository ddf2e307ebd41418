// The planner: the steps every mode shares (the space searched, judging candidates, choosing among the
// options, the answer's capacity), and the entry points.
#include "sim/planning/planner_search.hpp"
#include "sim/scenario/provenance.hpp"

namespace sonicsim::planning {

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

// The scenario's variants that give a model a curve for a device type: where a user finds it.
std::string Planner::Search::variants_with_curve(const std::string& model, const std::string& type) const {
  const std::string key = "models." + model + ".throughput." + type;
  std::string names;
  for (const auto& variant : scenario_.variants)
    for (const auto& override_text : variant.overrides)
      if (override_text.rfind(key, 0) == 0 ||
          override_text.rfind("models." + model + ".throughput=", 0) == 0) {
        names += (names.empty() ? "" : ", ") + std::string("--variant ") + variant.name;
        break;
      }
  return names.empty() ? "; no variant of the scenario gives one (import one: sonicsim import perf-analyzer)"
                       : "; the scenario's variants that give one: " + names;
}

void Planner::Search::describe_space() {
  const ServerGroup& g = group();
  for (const auto& [name, model] : scenario_.models)
    if (std::find(model.deploy.groups.begin(), model.deploy.groups.end(), g.name) !=
        model.deploy.groups.end())
      for (const auto& type : device_types())
        if (!model.throughput_by_device.count(type))
          throw InputError("--device-types " + type + ": model '" + name + "' has no throughput curve for " +
                           type + " (models." + name + ".throughput." + type +
                           "); its curves: " + curve_names(model) + variants_with_curve(name, type));
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
  plan_.searched.push_back("pod NIC: " + nic_list +
                           (settings_.nics_bps.empty() ? " (the scenario's; --nics to search others)" : ""));
  const auto& p = scenario_.platform;
  plan_.held_fixed.push_back(
      "site switch " + gbps_text(p.site_switch.bandwidth_bps) +
      (p.site_switch.background.peak_bps() > 0.0
           ? " with up to " + gbps_text(p.site_switch.background.peak_bps()) + " background"
           : ""));
  plan_.held_fixed.push_back("WAN " + gbps_text(p.wan.bandwidth_bps) + ", " + significant(p.wan.rtt_s * 1e3) +
                             " ms round trip");
  plan_.held_fixed.push_back("the site switch and WAN at most " +
                             significant(100.0 * settings_.max_link_load, 3) +
                             " % busy (--max-link-load; a plan needing more is refused before simulating)");
  plan_.held_fixed.push_back("host cores " + std::to_string(g.host_cores) + " per pod");
  plan_.held_fixed.push_back("worker NICs and job CPUs as the scenario has them");
  if (settings_.device_types.empty()) plan_.held_fixed.push_back("device type " + g.device_type);
  if (settings_.nics_bps.empty()) plan_.held_fixed.push_back("pod NIC " + gbps_text(g.nic_bandwidth_bps));
}

std::string Planner::Search::curve_names(const Model& model) {
  std::string out;
  for (const auto& entry : model.throughput_by_device)
    out += (out.empty() ? "" : ", ") + entry.first;
  return out;
}

// A link the pods cannot relieve (site switch, WAN) full before the jobs fit: no number of GPUs helps. The
// reason, or empty.
std::string Planner::Search::fixed_network_reason(const LayoutAnalysis& analysis, int jobs) const {
  const auto& fixed = fixed_network_limit(analysis);
  // The model's verdict, not a margin: past its capacity the link's queue grows without bound, so no target
  // holds. Below it the simulations decide; --max-link-load keeps a margin the user asks for.
  const double usable_jobs = settings_.max_link_load * fixed.jobs_at_saturation;
  if (jobs <= usable_jobs) return "";
  bool compressed = false;
  for (const auto& module : scenario_.workload.pipeline)
    compressed = compressed || module.compression_ratio > 1.0;
  const double need_bps = jobs * analysis.job_traffic_bps;
  char text[768];
  std::snprintf(
      text, sizeof text,
      "impossible target: the %s (%s) saturates first: %d jobs x %d thread(s) at %.3g Gb/event "
      "every %.4g s need %.3g Gb/s; it is full at %.0f jobs, and %s, so no number of GPUs serves "
      "%d jobs; give the network more capacity%s or plan for at most %.0f jobs",
      fixed.resource.c_str(), fixed.capacity.c_str(), jobs, analysis.threads,
      analysis.job_traffic_bps * analysis.t_ideal_s / analysis.threads / 1e9, analysis.t_ideal_s,
      need_bps / 1e9, fixed.jobs_at_saturation,
      settings_.max_link_load >= 1.0 ? std::string("more jobs than that cannot be served at all").c_str()
                                     : ("--max-link-load " + significant(settings_.max_link_load, 3) +
                                        " allows it " + significant(100.0 * settings_.max_link_load, 3) +
                                        " % busy (" + significant(usable_jobs, 4) + " jobs)")
                                           .c_str(),
      jobs, compressed ? ", compress the inputs further" : ", compress the inputs", std::floor(usable_jobs));
  return text;
}

// Judges candidate points: the first time with `replications`, then with more while undecided.
std::vector<Judgement> Planner::Search::judge_points(PlanRuns& runs, const std::vector<RunPoint>& points,
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
    // More replications of a run too short for its figures would be as short.
    j.can_refine = run.decision == Decision::undecided && run.too_short.empty() &&
                   static_cast<int>(run.replications.size()) < settings_.max_replications;
    out.push_back(j);
  }
  return out;
}

void Planner::Search::tell_outlook(const SearchOutlook& outlook, const std::string& open,
                                   int simulations_so_far) const {
  if (!settings_.outlook) return;
  std::string text = open;
  if (options_total_ > 1)
    text += " (option " + std::to_string(options_done_ + 1) + " of " + std::to_string(options_total_) + ")";
  // Nothing judged on either side yet (the first batch, from the analytic start): how many batches follow
  // depends on how far that start is from the answer, which no one knows yet; say so instead of guessing.
  if (!outlook.false_below && !outlook.true_above) return settings_.outlook(std::nullopt, text);
  const int points_per_batch = std::clamp(outlook.open_high - outlook.open_low, 1, candidates_per_batch());
  const int this_option_later = (outlook.likely_batches - 1) * points_per_batch * settings_.replications;
  const int this_option = simulations_so_far + outlook.next_size * settings_.replications + this_option_later;
  const int per_option = options_done_ > 0 ? finished_options_simulations_ / options_done_ : this_option;
  const int options_left = options_total_ - options_done_ - 1;
  settings_.outlook(static_cast<std::size_t>(this_option_later + std::max(0, options_left) * per_option),
                    text);
}

// A target no layout can meet, seen on the low-load reference: the reason, or empty.
std::string Planner::Search::impossible_reason(const PlanRun& reference, int jobs) const {
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
    const FigureSpec& spec = spec_of(target.figure.figure);
    if (target.figure.figure == Figure::events_per_s && plan_.mode != Plan::Mode::most_jobs) {
      // Little's law bounds the rate of a closed loop: jobs x threads / the shortest event time.
      const auto threads = scenario_.workload.threads;
      const double ceiling = jobs * threads / r.event_mean_s.low();
      if (ceiling < target.limit) {
        std::snprintf(
            text, sizeof text,
            "--target %s is impossible: %d jobs x %d thread(s) at the low-load event time %.4g s give "
            "at most %.4g events/s; the jobs themselves (not the GPUs) stop it: plan for more jobs",
            target.text.c_str(), jobs, threads, r.event_mean_s.low(), ceiling);
        reason = text;
      }
    } else if (std::string(spec.unit) == "s" && target.at_most && monotone_in_devices(target)) {
      // A time no layout shortens below its low-load value, where nothing queues.
      const std::string what = spec.per_module ? "accelerated module's " + std::string(spec.name)
                                               : "event's " + std::string(spec.name);
      reason =
          low_load(what.c_str(), interval_of(r.replications, target.figure.figure),
                   spec.per_module ? "its preprocessing on the job's CPU, the transfer and the GPU time of "
                                     "one request set it"
                                   : "the jobs' own CPU time sets it");
    }
    if (!reason.empty()) return reason;
  }
  return "";
}

// The first layout whose MVA module time at `jobs` is within the bracket tolerance.
std::size_t Planner::Search::analytic_start(const std::vector<PodLayout>& layouts, int jobs,
                                            double low_load_s) const {
  for (std::size_t i = 0; i < layouts.size(); ++i) {
    if (analyse_layout(scenario_, layouts[i]).first().jobs_at_saturation <
        jobs * bracket_min_capacity_fraction)
      continue;
    if (mva_module_s(scenario_, layouts[i], jobs) <= (1.0 + bracket_tolerance_) * low_load_s) return i;
  }
  return layouts.size() - 1;
}

std::vector<PodLayout> Planner::Search::layouts_for(const std::string& type, double nic, int min_pods) const {
  auto layouts = candidate_layouts(min_pods, settings_.max_gpus_per_pod, settings_.max_gpus);
  for (auto& layout : layouts) {
    layout.device_type = type;
    layout.nic_bps = nic;
  }
  return layouts;
}

// The answer's cost per event over its replications, its bill at the mean throughput and the assumed values
// it rests on, on the scenario at the answer (both plan modes).
const Scenario& Planner::Search::price_answer(const Scenario& at_answer) {
  plan_.cost_usd_per_event = cost_interval(*plan_.answer_run);
  plan_.bill = cost_bill(at_answer, plan_.answer_run->events_per_s.mean);
  plan_.assumptions = assumptions_in_use(at_answer);
  return at_answer;
}

std::optional<ConfidenceInterval> Planner::Search::cost_interval(const PlanRun& run) {
  std::vector<double> values;
  for (const auto& r : run.replications)
    if (const auto cost = r.value(Figure::cost_usd_per_event)) values.push_back(*cost);
  if (values.size() != run.replications.size() || values.empty()) return std::nullopt;
  return aggregate(values);
}

Plan Planner::Search::conclude(std::vector<OptionSearch>& searches) {
  for (auto& s : searches) {
    Scenario at = scenario_;
    for (auto& g : at.platform.server_groups)
      if (g.name == group().name) g.device_type = s.option.device_type;
    s.option.assumptions = assumptions_in_use(at);
  }
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
    plan_.chosen = pick; // the option the reason is read from; no option is chosen (found stays false)
    plan_.impossible = searches[pick].impossible;
    plan_.not_found_reason = searches[pick].option.reason;
    plan_.at_least_jobs = searches[pick].option.at_least_jobs;
    plan_.at_most_gpus = searches[pick].option.at_most_gpus;
    plan_.estimate_basis = searches[pick].option.estimate_basis;
    plan_.job_ceiling = searches[pick].ceiling_jobs;
    plan_.analytic_jobs = searches[pick].option.analytic_jobs;
    plan_.analytic_layout = searches[pick].option.analytic_layout;
    plan_.job_step = searches[pick].job_step;
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
  plan_.job_ceiling = chosen.ceiling_jobs;
  plan_.estimate_basis = chosen.option.estimate_basis;
  if (plan_.mode == Plan::Mode::most_jobs) {
    plan_.jobs = chosen.option.jobs;
    plan_.jobs_low = chosen.option.jobs_low;
    plan_.jobs_high = chosen.option.jobs_high;
  }
  plan_.answer_run = chosen.answer_run;
  plan_.first_failing = chosen.first_failing;
  finish();
  if (const auto& answer = plan_.answer_run) {
    const Scenario at_answer = chosen.runs->scenario_at(
        RunPoint{answer->layout, answer->group_devices, answer->jobs}, scenario_.seed);
    price_answer(at_answer);
  }
  return plan_;
}

std::string Planner::Search::why_lost(const OptionSearch& lost, const OptionSearch& chosen) const {
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

void Planner::Search::finish() {
  plan_.analysis = analyse_layout(scenario_, plan_.layout);
  if (!plan_.answer_run) return;
  const auto& answer = *plan_.answer_run;
  std::vector<double> ratios, knees;
  for (std::size_t r = 0; r < answer.replications.size() && r < plan_.reference.replications.size(); ++r) {
    const auto defined = cpu_gpu_ratio(plan_.reference.replications[r].value(Figure::event_mean_s),
                                       answer.replications[r].value(Figure::gpu_s_per_event));
    if (!defined || !(*defined > 0.0)) continue;
    const double ratio = *defined;
    ratios.push_back(ratio);
    // The ratio is per CPU thread; a job holds `threads` of them.
    const double threads = scenario_.workload.threads;
    knees.push_back(plan_.mode == Plan::Mode::fewest_gpus ? plan_.jobs * threads / ratio
                                                          : ratio * plan_.layout.gpus() / threads);
  }
  plan_.ratio_simulated = confidence_interval_95(ratios);
  plan_.knee_sizing = confidence_interval_95(knees);
  for (const auto& check : answer.checks)
    if (!monotone_in_devices(check.target)) {
      if (check.decision == Decision::no) {
        plan_.found = false;
        char text[512];
        std::snprintf(text, sizeof text,
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

// plan --jobs N: the fewest GPUs (and pods) for N jobs, on one device type and pod NIC.
#include "sim/metrics/number_text.hpp"
#include "sim/planning/planner_search.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <optional>
#include <utility>

namespace sonicsim::planning {

namespace {

// The answer's range: above the highest index failing by its interval, up to the lowest meeting by it.
std::pair<int, int> strict_range(const ConfidentSearch& search,
                                 const std::function<Decision(int)>& strict_at) {
  int low = 0, high = *search.first_true;
  std::optional<int> strict_high;
  for (const auto& [index, decision] : search.decisions) {
    const auto strict = strict_at(index);
    if (strict == Decision::no && index < *search.first_true) low = std::max(low, index + 1);
    if (strict == Decision::yes && index >= *search.first_true && !strict_high) strict_high = index;
  }
  if (strict_high) high = *strict_high;
  return {low, high};
}

// Why no layout of the grid meets the targets, with what limits the largest one tried.
std::string no_layout_meets(int largest_gpus, const std::string& type, int jobs,
                            const std::vector<PlanRun>& candidates) {
  return "no layout of up to " + std::to_string(largest_gpus) + " " + type + " meets the targets at " +
         std::to_string(jobs) + " jobs" +
         (candidates.empty() ? ""
                             : " (the largest tried is limited by its busiest shared resource, " +
                                   candidates.back().bottleneck.busiest + " at " +
                                   significant(100.0 * candidates.back().bottleneck.utilisation, 3) + " %)") +
         "; raise --max-gpus or relax the targets";
}

} // namespace

// The layout the analytic models would pick with a NIC fast_nic_factor times faster: a plan says whether its
// NICs, not its GPUs, set its size.
std::optional<PodLayout> Planner::Search::analytic_layout_fast_nic(const std::string& type, double nic,
                                                                   int jobs) const {
  const PodLayout fast_one{1, 1, type, nic * fast_nic_factor};
  const auto fast = analyse_layout(scenario_, fast_one);
  const auto fast_layouts =
      layouts_for(type, nic * fast_nic_factor, pods_for_network(fast, jobs, saturation_threshold));
  if (fast_layouts.empty()) return std::nullopt;
  return fast_layouts[analytic_start(fast_layouts, jobs, fast.module_low_load_s)];
}

// The search's first batch (first_radius), and with a better option found already, a stop once this one
// cannot beat it. `out`, `runs` and `layouts` are the caller's, alive while the search runs.
SearchShape Planner::Search::fewest_shape(OptionSearch& out, const PlanRuns& runs,
                                          const std::vector<PodLayout>& layouts, int jobs) const {
  SearchShape shape;
  shape.first_radius = first_radius();
  if (best_found_ && !settings_.size_every_option)
    shape.stop = [this, &out, &runs, &layouts, jobs](int first_possible) {
      out.option.reason = cannot_beat(out.option, runs.reference(),
                                      layouts[static_cast<std::size_t>(first_possible)], jobs, *best_found_);
      return !out.option.reason.empty();
    };
  return shape;
}

OptionSearch Planner::Search::search_fewest(const std::string& type, double nic, int jobs) {
  OptionSearch out;
  out.option.device_type = type;
  out.option.nic_bps = nic;
  const OptionGrid grid = option_grid(type, nic, jobs);
  const auto& one_gpu = grid.one_gpu;
  const int min_pods = grid.min_pods;
  const auto& layouts = grid.layouts;
  // Decided before any simulation: a complete answer, "no" (not bad input).
  if (!grid.refused.empty()) {
    out.option.reason = grid.refused;
    out.impossible = true;
    return out;
  }
  if (plan_.layout_rule.empty()) plan_.layout_rule = layout_rule(settings_.max_gpus_per_pod, min_pods);
  if (layouts.empty()) {
    out.option.reason = "no layout of at most " + std::to_string(settings_.max_gpus) + " GPUs has the " +
                        std::to_string(min_pods) + " pods the " + gbps_text(nic) + " pod NICs need for " +
                        std::to_string(jobs) + " jobs; raise --max-gpus";
    return out;
  }
  if (plan_.analytic_module_low_load_s == 0.0) plan_.analytic_module_low_load_s = one_gpu.module_low_load_s;
  const std::size_t start = grid.start;
  out.option.analytic_layout = layouts[start];
  out.option.analytic_layout_fast_nic = analytic_layout_fast_nic(type, nic, jobs);
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
  const auto judge = [&](const std::vector<int>& indices) {
    std::vector<RunPoint> points;
    for (const int i : indices)
      points.push_back(point(i));
    return judge_points(runs, points, false);
  };
  const auto tell = [&](const SearchOutlook& outlook) {
    const auto gpus = [&](int index) { return layouts[static_cast<std::size_t>(index)].gpus(); };
    // Until a layout meets the targets, the top is only the search's bound (--max-gpus).
    const std::string top = outlook.true_above ? std::to_string(gpus(outlook.open_high))
                                               : std::to_string(gpus(outlook.open_high)) + " (--max-gpus)";
    tell_outlook(outlook, type + ": " + std::to_string(gpus(outlook.open_low)) + "-" + top + " GPUs open",
                 runs.simulations());
  };
  const SearchShape shape = fewest_shape(out, runs, layouts, jobs);
  const auto search =
      find_first_true_confidently(0, static_cast<int>(layouts.size()) - 1, static_cast<int>(start),
                                  candidates_per_batch(), judge, tell, shape);
  out.budget_exhausted = search.budget_exhausted;
  if (search.stopped) return out;
  if (!search.first_true) {
    out.option.reason = no_layout_meets(layouts.back().gpus(), type, jobs, runs.candidates());
    return out;
  }
  // The grid's first layout is set by the pod-NIC rule, not by a failing neighbour: simulate one GPU fewer.
  if (*search.first_true == 0 && !edge_neighbour_fails(out, runs, layouts.front(), jobs)) return out;
  out.option.found = true;
  out.option.layout = layouts[static_cast<std::size_t>(*search.first_true)];
  const auto [low, high] =
      strict_range(search, [&](int index) { return strict_decision(*runs.find(point(index))); });
  if (low != *search.first_true) out.option.low = layouts[static_cast<std::size_t>(low)];
  if (high != *search.first_true) out.option.high = layouts[static_cast<std::size_t>(high)];
  out.answer_run = *runs.find(point(*search.first_true));
  if (search.first_possible > 0 && !out.first_failing)
    if (const auto* below = runs.find(point(search.first_possible - 1))) out.first_failing = *below;
  out.option.cost_usd_per_event = cost_interval(*out.answer_run);
  return out;
}

Planner::Search::OptionGrid Planner::Search::option_grid(const std::string& type, double nic,
                                                         int jobs) const {
  OptionGrid grid;
  grid.one_gpu = analyse_layout(scenario_, PodLayout{1, 1, type, nic});
  grid.refused = fixed_network_reason(grid.one_gpu, jobs);
  if (!grid.refused.empty()) return grid;
  grid.min_pods = pods_for_network(grid.one_gpu, jobs, saturation_threshold);
  grid.layouts = layouts_for(type, nic, grid.min_pods);
  if (!grid.layouts.empty()) grid.start = analytic_start(grid.layouts, jobs, grid.one_gpu.module_low_load_s);
  return grid;
}

std::vector<std::size_t>
Planner::Search::option_order(const std::vector<std::pair<std::string, double>>& options) const {
  std::vector<std::size_t> order(options.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    order[k] = k;
  if (plan_.mode != Plan::Mode::fewest_gpus || options.size() < 2 || settings_.size_every_option)
    return order;
  // The MVA layout's bill per hour (any positive rate gives the same hourly bill), else its devices; an
  // option the network refuses goes last (it is decided at once).
  std::vector<double> rank(options.size(), std::numeric_limits<double>::infinity());
  for (std::size_t k = 0; k < options.size(); ++k) {
    const OptionGrid grid = option_grid(options[k].first, options[k].second, plan_.jobs);
    if (!grid.refused.empty() || grid.layouts.empty()) continue;
    const PodLayout& layout = grid.layouts[grid.start];
    Scenario at = with_layout(scenario_, layout);
    at.workload.jobs = plan_.jobs;
    const auto bill = cost_bill(at, 1.0);
    rank[k] = bill ? bill->usd_per_hour : static_cast<double>(layout.gpus());
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return rank[a] < rank[b]; });
  return order;
}

std::string Planner::Search::cannot_beat(PlanOption& option, const PlanRun& reference,
                                         const PodLayout& fewest, int jobs, const OptionSearch& best) const {
  const PlanOption& b = best.option;
  Scenario at = with_layout(scenario_, fewest);
  at.workload.jobs = jobs;
  // No layout runs a job faster than the low-load reference does: the top of its interval, times the jobs,
  // bounds the rate, and so the bill per event from below.
  const double most_events_per_s =
      jobs * interval_of(reference.replications, Figure::events_per_s_per_job).high();
  const auto bill = cost_bill(at, most_events_per_s);
  const std::string at_least = "at least " + std::to_string(fewest.gpus()) + " " + fewest.device_type +
                               " (fewer failed, or are below the layout rule's fewest pods)";
  const std::string rival =
      std::to_string(b.layout.gpus()) + " " + b.device_type + " with " + gbps_text(b.nic_bps) + " pod NICs";
  char text[640];
  if (bill && b.cost_usd_per_event) {
    if (bill->usd_per_event <= b.cost_usd_per_event->high()) return "";
    std::snprintf(text, sizeof text,
                  "not sized: %s at most %.4g events/s (%d jobs x the low-load rate per job) cost at least "
                  "%.4g USD per event, above the %.4g of %s (the top of its 95 %% interval); "
                  "--size-every-option sizes it",
                  at_least.c_str(), most_events_per_s, jobs, bill->usd_per_event,
                  b.cost_usd_per_event->high(), rival.c_str());
    option.cost_at_least_usd_per_event = bill->usd_per_event;
  } else {
    // Without both prices the fewer devices win.
    if (fewest.gpus() <= b.layout.gpus()) return "";
    std::snprintf(text, sizeof text,
                  "not sized: %s, more devices than %s (no prices to compare: the fewer devices win); "
                  "--size-every-option sizes it",
                  at_least.c_str(), rival.c_str());
  }
  option.left_unsized = true;
  option.at_least_gpus = fewest.gpus();
  return text;
}

// The answer is the grid's first layout, set by the pod-NIC rule: its neighbour with one GPU fewer is outside
// the grid, so it is simulated here. Only a failing neighbour makes the answer the fewest; one that meets (or
// stays undecided) leaves "at most" this many GPUs, said in the option's reason. False in that case.
bool Planner::Search::edge_neighbour_fails(OptionSearch& out, PlanRuns& runs, const PodLayout& first,
                                           int jobs) {
  if (first.gpus() <= 1) return true; // nothing fewer to try
  const auto fewer = layout_for_gpus(first.gpus() - 1, 1, settings_.max_gpus_per_pod);
  if (!fewer) return true;
  PodLayout neighbour = *fewer;
  neighbour.device_type = first.device_type;
  neighbour.nic_bps = first.nic_bps;
  const auto judged = judge_points(runs, {RunPoint{neighbour, {}, jobs}}, false);
  if (judged.front().decision == Decision::no) {
    out.first_failing = *runs.find(RunPoint{neighbour, {}, jobs});
    return true;
  }
  const auto text = [&](const PodLayout& l) {
    return std::to_string(l.gpus()) + " " + l.device_type + " in " + std::to_string(l.pods) + " pod(s)";
  };
  out.option.at_most_gpus = first.gpus();
  out.option.reason = text(first) + " meets the targets, but so does " + text(neighbour) + " (" +
                      decision_text(judged.front().decision) +
                      "), which has fewer pods than the rule that keeps the pod NICs below 90 % busy allows: "
                      "the answer is at most " +
                      std::to_string(first.gpus()) + " GPUs, at the edge of the grid searched";
  return false;
}

} // namespace sonicsim::planning

// plan --jobs N on a scenario with several server groups: the devices of every group for N jobs.
#include "sim/planning/planner_search.hpp"

#include "sim/scenario/provenance.hpp"
#include <algorithm>

namespace sonicsim::planning {
namespace {

// A group's own judgement of a run: only its modules' checks (and the events failed) decide.
Judgement group_judgement(const PlanRun& run, const std::string& group, int max_replications) {
  bool no = !run.error.empty(), yes = true;
  // The group's own checks, and those of the whole run (event time, throughput, the gain over direct
  // inference): a global target holds or fails with every group at its count, so each group's search keeps
  // it.
  for (const auto& check : run.checks)
    if (check.scope == group || check.scope.empty()) {
      no = no || check.decision == Decision::no;
      yes = yes && check.decision == Decision::yes;
    }
  Judgement j;
  j.decision = no ? Decision::no : (yes && run.too_short.empty() ? Decision::yes : Decision::undecided);
  j.can_refine = j.decision == Decision::undecided && run.too_short.empty() &&
                 static_cast<int>(run.replications.size()) < max_replications;
  return j;
}

// Why the answer does not stand: the first of its targets not met, or not decided; empty when all are met.
std::string first_unmet(const PlanRun& answer) {
  for (const auto& check : answer.checks) {
    if (check.decision == Decision::yes) continue;
    const bool no = check.decision == Decision::no;
    return std::string(no ? "not met" : "undecided") + " at the last counts: " + check.target.text +
           (check.scope.empty() ? "" : " (group " + check.scope + ")") +
           (no ? ""
               : "; more replications (--max-replications) or longer runs (workload.events_per_job) may "
                 "decide it");
  }
  return {};
}

} // namespace

// What follows depends on the other groups' searches: no estimate of it, the group's open range only.
void Planner::Search::tell_group_outlook(const SearchOutlook& outlook, const std::string& group,
                                         int pass) const {
  if (settings_.outlook)
    settings_.outlook(std::nullopt, "group " + group + ": " + std::to_string(outlook.open_low) + "-" +
                                        std::to_string(outlook.open_high) + " devices open (pass " +
                                        std::to_string(pass + 1) + ")");
}

namespace {

// The groups sized: every group with devices that is not a fallback on the client nodes, with the modules
// it serves and its devices in the scenario.
struct SizedGroups {
  std::map<std::string, std::vector<std::string>> modules_by_group;
  std::map<std::string, int> counts;
};

SizedGroups sized_groups(const Scenario& scenario) {
  SizedGroups out;
  auto& modules_by_group = out.modules_by_group;
  for (const auto& g : scenario.platform.server_groups) {
    if (g.on_client_nodes || g.devices_per_pod == 0) continue;
    for (const auto& module : scenario.workload.pipeline) {
      if (!module.served()) continue;
      const auto& model = scenario.models.at(module.model);
      if (std::find(model.deploy.groups.begin(), model.deploy.groups.end(), g.name) !=
          model.deploy.groups.end())
        modules_by_group[g.name].push_back(module.name);
    }
    if (modules_by_group.count(g.name)) out.counts[g.name] = g.devices();
  }
  return out;
}

std::vector<GroupPlan> group_plans(const Scenario& scenario,
                                   const std::map<std::string, std::vector<std::string>>& modules_by_group,
                                   const std::map<std::string, int>& counts) {
  std::vector<GroupPlan> out;
  for (const auto& [name, count] : counts) {
    GroupPlan gp;
    gp.group = name;
    gp.device_type = scenario.platform.group(name)->device_type;
    gp.modules = modules_by_group.at(name);
    gp.start_devices = count;
    gp.devices_per_pod = scenario.platform.group(name)->devices_per_pod;
    out.push_back(gp);
  }
  return out;
}

} // namespace

Plan Planner::Search::per_group(int jobs) {
  plan_.mode = Plan::Mode::per_group;
  plan_.requested = jobs;
  plan_.jobs = jobs;
  auto [modules_by_group, counts] = sized_groups(scenario_);
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
                inferences_per_event_);
  // The reference: a tenth of the jobs on the scenario's own layout (at least min_reference_jobs).
  RunPoint reference{
      PodLayout{}, counts,
      std::max(min_reference_jobs, static_cast<int>(std::lround(jobs * reference_load_fraction)))};
  runs.set_reference(reference);
  runs.ensure({}, settings_.replications);
  plan_.groups = group_plans(scenario_, modules_by_group, counts);
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
          1, settings_.max_gpus, before, settings_.parallel,
          [&](const std::vector<int>& indices) {
            std::vector<std::pair<RunPoint, int>> wanted;
            for (const int d : indices)
              wanted.emplace_back(point(d),
                                  next_replications(runs.replications_of(point(d)), settings_.replications,
                                                    settings_.max_replications));
            const auto judged = runs.ensure(wanted);
            std::vector<Judgement> out;
            for (const auto& run : judged)
              out.push_back(group_judgement(run, gp.group, settings_.max_replications));
            return out;
          },
          [&](const SearchOutlook& outlook) { tell_group_outlook(outlook, gp.group, pass); });
      if (!search.first_true) {
        gp.found = false;
        gp.reason =
            "no count up to " + std::to_string(settings_.max_gpus) + " meets the targets; raise --max-gpus";
        plan_.not_found_reason = "group " + gp.group + ": " + gp.reason;
        return with_evidence(runs);
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
  const RunPoint answer{PodLayout{}, counts, jobs};
  plan_.answer_run =
      runs.ensure({{answer, std::max(settings_.replications, runs.replications_of(answer))}}).front();
  // Found only when every target is met at the answer: a search whose candidates stayed undecided has no
  // answer to report.
  plan_.not_found_reason = first_unmet(*plan_.answer_run);
  plan_.found = plan_.not_found_reason.empty();
  plan_.reference = runs.reference();
  with_evidence(runs);
  plan_.station_saturation = station_limits(price_answer(runs.scenario_at(answer, scenario_.seed)));
  return plan_;
}

std::vector<SharedModule> shared_modules(const std::vector<GroupPlan>& groups) {
  std::vector<SharedModule> out;
  for (const auto& g : groups)
    for (const auto& module : g.modules) {
      auto it =
          std::find_if(out.begin(), out.end(), [&](const SharedModule& s) { return s.module == module; });
      if (it == out.end()) {
        out.push_back({module, {}});
        it = out.end() - 1;
      }
      it->groups.push_back(g.group);
    }
  out.erase(std::remove_if(out.begin(), out.end(), [](const SharedModule& s) { return s.groups.size() < 2; }),
            out.end());
  return out;
}

std::string shared_module_text(const SharedModule& shared) {
  std::string groups;
  for (std::size_t k = 0; k < shared.groups.size(); ++k)
    groups += (k == 0 ? "" : k + 1 == shared.groups.size() ? " and " : ", ") + shared.groups[k];
  return shared.module + " is served by " + groups +
         " together: the plan sizes one group at a time with the others held, so their split is one that "
         "meets the targets, not the only one nor always the fewest devices in all (another split can be "
         "tried with --set platform.server_groups.G.pods=N and run)";
}

} // namespace sonicsim::planning

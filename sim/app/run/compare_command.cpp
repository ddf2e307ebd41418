// `sonicsim compare SCENARIO`: the scenario and each of its named variants (variants:) side by side. Every
// variant runs twice, at the scenario's job count (or --jobs) and at low load (the unsaturated reference),
// all in parallel child processes; the table puts the simulated figures next to the analytic ones and the
// change against the base. `--variant` means what it means everywhere (applied, in order, to the base and so
// to every column); `--columns` names the columns.
#include "sim/app/commands.hpp"
#include "sim/app/run/html_report.hpp"
#include "sim/metrics/json_fields.hpp"

#include "sim/analysis/scenario_parameters.hpp"
#include "sim/app/common/execution_flags.hpp"
#include "sim/app/common/output_options.hpp"
#include "sim/app/common/scenario_source.hpp"
#include "sim/app/run/compare_table.hpp"
#include "sim/engine/output_files.hpp"
#include "sim/execution/run_or_submit.hpp"
#include "sim/execution/state_file.hpp"
#include "sim/planning/capacity_analysis.hpp"
#include "sim/random/replication_seed.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <thread>

namespace sonicsim {
namespace {

// Low load for the reference: a tenth of the base knee, at least this many jobs for stable means.
constexpr int min_reference_jobs = 20;

struct CompareArguments {
  ScenarioSource source;
  bool html = false;                // --html: report.html beside the results
  std::vector<std::string> columns; // variant names; empty: all not applied by --variant
  int jobs = 0;
  int replications = 1;
  std::string output_dir;
  bool quiet = false, json = false;
  ExecutionFlags execution{hardware_threads()};
};

// A column's variants: those applied to every column (--variant), then the column's own (none for the base).
std::vector<std::string> variant_list(const std::vector<std::string>& applied, const std::string& name) {
  std::vector<std::string> out = applied;
  if (!name.empty()) out.push_back(name);
  return out;
}

// The base (""), then the columns in the order asked (every variant not applied to the base, in the file's
// order, when none is named).
std::vector<std::string> column_names(const CompareArguments& arguments, const Scenario& base) {
  const std::vector<std::string>& applied = arguments.source.variants;
  const auto is_applied = [&](const std::string& name) {
    return std::find(applied.begin(), applied.end(), name) != applied.end();
  };
  // Until this release compare's --variant named the columns: a command written for that says so.
  if (!applied.empty() && arguments.columns.empty() && !arguments.quiet && !arguments.json)
    std::fprintf(stderr,
                 "compare: --variant is applied to the base and every column, as in every command (it named "
                 "the columns before; for a column per variant: --columns NAME,...)\n");
  std::vector<std::string> names{""};
  if (arguments.columns.empty()) {
    for (const auto& variant : base.variants)
      if (!is_applied(variant.name)) names.push_back(variant.name);
  } else {
    for (const auto& wanted : arguments.columns) {
      arguments.source.load_variants({wanted}); // an unknown name is told here, with the known ones
      if (is_applied(wanted))
        throw InputError("--columns " + wanted + ": already applied to every column by --variant " + wanted +
                         "; name it in one of the two");
      if (std::find(names.begin(), names.end(), wanted) == names.end()) names.push_back(wanted);
    }
  }
  if (names.size() == 1)
    throw InputError("nothing to compare: every variant of scenario '" + base.name +
                     "' is applied to the base by --variant; name the columns with --columns");
  return names;
}

// The one-group analysis the ratio, knee and network limit rows come from; none, with the reason, for a
// scenario it does not describe: several server groups (GPU against FPGA, a CPU fallback beside the T4), or
// no device time at all.
std::optional<planning::LayoutAnalysis> one_group_analysis(const Scenario& scenario, std::string& why) {
  const auto& groups = scenario.platform.server_groups;
  if (groups.size() != 1) {
    why = "they size one server group's devices, and this column has " + std::to_string(groups.size()) +
          " (sonicsim analytic gives its MVA)";
    return std::nullopt;
  }
  if (!(analysis::derive_parameters(scenario).t_gpu_s > 0.0)) {
    why = "no request reaches a device (every model runs on CPU instances), so t_GPU is 0";
    return std::nullopt;
  }
  const ServerGroup& group = groups.front();
  return planning::analyse_layout(
      scenario, planning::PodLayout{group.pods, group.devices_per_pod, group.device_type, 0.0});
}

// Where the compared scenario's first shared resource fills: the layout's, or else the MVA's asymptotes
// (several groups), in jobs.
double first_saturation_jobs(const ComparedScenario& c) {
  if (c.analysis) return c.analysis->limits.empty() ? 0.0 : c.analysis->first().jobs_at_saturation;
  const auto parameters = analysis::derive_parameters(c.scenario);
  return models::asymptotic_bounds(parameters.closed_network(), 1.0).saturation_jobs / parameters.threads;
}

// A scenario compare can set side by side: a fixed number of jobs (or a pooled campaign), and variants.
void check_comparable(const Scenario& base) {
  // A campaign's jobs come and go: its knee and ratio are not one number. A campaign whose servers change in
  // time (operations) is compared as run, so that static and autoscaled pools can be set side by side; its
  // jobs are the grid slots at the peak.
  const bool pooled = std::any_of(base.platform.server_groups.begin(), base.platform.server_groups.end(),
                                  [](const ServerGroup& g) { return g.pooled(); });
  if (base.workload.campaign && !pooled)
    throw InputError("compare works on a fixed number of concurrent jobs; this scenario is a campaign (one "
                     "whose server groups have an autoscaler, failures or a proxy can be compared)");
  if (base.variants.empty())
    throw InputError("scenario '" + base.name +
                     "' has no variants: add a variants: section (see "
                     "docs/scenario_reference.md)");
}

int compare(const CompareArguments& arguments) {
  const ExecutionOptions execution =
      execution_options(arguments.execution, arguments.quiet || arguments.json);
  // Everything is loaded (and so checked) before the first run.
  const Scenario base = arguments.source.load();
  check_comparable(base);
  const std::vector<std::string>& applied = arguments.source.variants;
  const std::vector<std::string> names = column_names(arguments, base);
  const int jobs = arguments.jobs > 0 ? arguments.jobs : base.workload.jobs;
  const std::vector<std::string> at_jobs{"workload.jobs=" + std::to_string(jobs)};
  std::vector<ComparedScenario> compared;
  for (const auto& name : names) {
    ComparedScenario c{name, arguments.source.load_variants(variant_list(applied, name), at_jobs), {}, {}, {},
                       {}};
    c.analysis = one_group_analysis(c.scenario, c.no_analysis);
    compared.push_back(std::move(c));
  }
  const double base_knee = first_saturation_jobs(compared.front());
  const int reference_jobs =
      std::min(jobs, std::max(min_reference_jobs, static_cast<int>(std::lround(0.1 * base_knee))));
  const std::filesystem::path output_dir = arguments.output_dir.empty()
                                               ? std::filesystem::path("out") / ("compare_" + base.name)
                                               : std::filesystem::path(arguments.output_dir);
  ensure_writable_directory(output_dir);

  // Column by column, replication by replication: loaded, then low load.
  const int replications = arguments.replications;
  const std::vector<std::string> at_reference{"workload.jobs=" + std::to_string(reference_jobs)};
  std::vector<SimulationRequest> runs;
  for (const auto& c : compared)
    for (int r = 0; r < replications; ++r) {
      Scenario loaded = c.scenario;
      loaded.seed = replication_seed(c.scenario.seed, r);
      runs.push_back({loaded,
                      arguments.source.recipe_with_variants(loaded, variant_list(applied, c.name), at_jobs),
                      {}});
      loaded.workload.jobs = reference_jobs;
      runs.push_back(
          {loaded,
           arguments.source.recipe_with_variants(loaded, variant_list(applied, c.name), at_reference),
           {}});
    }
  const bool text = !arguments.quiet && !arguments.json;
  if (text) {
    std::printf("compare %s: base and %zu variant(s) at %d jobs, reference at %d jobs", base.name.c_str(),
                compared.size() - 1, jobs, reference_jobs);
    for (const auto& name : applied)
      std::printf(", variant %s applied to every column", name.c_str());
    if (replications > 1) std::printf(", %d replications each", replications);
    std::printf("; %zu runs\n", runs.size());
  }
  const ExecutionContext context{execution, output_dir, "compare", (output_dir / "compare.json").string()};
  const auto simulated = run_or_submit(context, runs);
  if (!simulated) return exit_ok; // submitted: the merge job writes compare.json
  const auto& outcomes = *simulated;
  for (std::size_t i = 0; i < compared.size(); ++i)
    for (int r = 0; r < replications; ++r) {
      const std::size_t k = 2 * (i * replications + r);
      compared[i].loaded.push_back(outcomes[k]);
      compared[i].reference.push_back(outcomes[k + 1]);
    }
  throw_if_interrupted("every simulation had finished; compare.json is not written");
  const auto table = compare_figures(compared, jobs, reference_jobs, replications);
  if (text) print_compare_table(table);
  write_file_atomically(output_dir / "compare.json", json_text(compare_to_json(table), 1) + "\n");
  if (text) std::printf("\nwrote %s\n", (output_dir / "compare.json").string().c_str());
  if (arguments.json) std::printf("%s\n", json_text(compare_to_json(table), 1).c_str());
  std::fflush(stdout);
  write_html_report_if_asked(arguments.html, output_dir, !text);
  for (std::size_t i = 0; i < compared.size(); ++i)
    for (const auto* outcomes_of : {&compared[i].loaded, &compared[i].reference})
      for (const auto& outcome : *outcomes_of)
        if (!outcome.ok) {
          std::fprintf(stderr, "sonicsim: %s: a run failed: %s\n", table.columns[i].c_str(),
                       outcome.error.c_str());
          return exit_run_failed;
        }
  return exit_ok;
}

} // namespace

void register_compare_command(CLI::App& app, int& result) {
  auto arguments = std::make_shared<CompareArguments>();
  auto* command = app.add_subcommand(
      "compare",
      "Simulate the scenario and each of its named variants (variants:) and print their key figures "
      "side by side against the base; writes compare.json");
  arguments->source.add_options(*command);
  command
      ->add_option("--columns", arguments->columns,
                   "The variants to compare, each as a column after the base, in this order (comma-separated "
                   "or repeatable; default: every variant not applied by --variant)")
      ->delimiter(',')
      ->allow_extra_args(false);
  command->add_option("--jobs", arguments->jobs, "Concurrent jobs for every column (default: the scenario's)")
      ->check(CLI::Range(1, 10000000));
  command
      ->add_option(
          "--replications", arguments->replications,
          "Independent replications per column (the same seeds in every column): figures as mean +- 95 % "
          "interval")
      ->check(CLI::Range(1, 1000));
  command
      ->add_option("--out", arguments->output_dir,
                   "Output directory for compare.json (default: out/compare_<scenario name>)")
      ->check(directory_path);
  add_execution_options(*command, arguments->execution, ExecutionShape::simulations);
  add_html_option(*command, arguments->html);
  add_output_options(*command, arguments->quiet, &arguments->json);
  command->callback([arguments, &result]() { result = guarded_batches(*arguments, compare); });
}

} // namespace sonicsim

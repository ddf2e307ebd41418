// `sonicsim validate [CASE...]`: runs the validation cases (validation/cases/*.yaml) in parallel processes,
// prints case | measured | analytic | simulated | error | tolerance | verdict, writes validation/report.md,
// report.json and accuracy.json, and exits non-zero when a case fails (a known discrepancy is reported with
// its reason and does not fail the run) or, with --against, when a released case's accuracy regressed.
#include "sim/app/commands.hpp"
#include "sim/app/run/html_report.hpp"
#include "sim/metrics/json_fields.hpp"

#include "sim/app/common/execution_flags.hpp"
#include "sim/app/common/output_options.hpp"
#include "sim/app/common/scenario_source.hpp"
#include "sim/app/validate/validate_report.hpp"
#include "sim/app/validate/validation_batch.hpp"
#include "sim/engine/output_files.hpp"
#include "sim/execution/run_or_submit.hpp"
#include "sim/execution/state_file.hpp"
#include "sim/metrics/direct_baseline.hpp"
#include "sim/metrics/summary_json.hpp"
#include "sim/scenario/scenario_loader.hpp"
#include "sim/validation/accuracy_table.hpp"
#include "sim/validation/crossing_waves.hpp"
#include "sim/validation/observables.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

namespace fs = std::filesystem;

namespace sonicsim {
namespace {

struct ValidateArguments {
  bool html = false;                 // --html: report.html beside report.md
  std::vector<std::string> case_ids; // empty: all
  std::string cases_dir;
  std::string report_dir;
  bool fast = false;
  bool quiet = false, json = false;
  ExecutionFlags execution{2};
  std::string work_dir = "out/validate";
  std::string against; // --against FILE: a committed accuracy table
};

fs::path default_cases_dir() {
  if (fs::exists("validation/cases")) return "validation/cases";
  return fs::path(SONICSIM_SOURCE_DIR) / "validation" / "cases";
}

// The cases of cases_dir that this validation runs (those named, or all, or the fast ones), with unique ids.
std::vector<ValidationCase> select_cases(const ValidateArguments& arguments, const fs::path& cases_dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(cases_dir))
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<ValidationCase> cases;
  for (const auto& file : files) {
    auto c = load_validation_case(file.string());
    const bool named =
        std::find(arguments.case_ids.begin(), arguments.case_ids.end(), c.id) != arguments.case_ids.end();
    if (!arguments.case_ids.empty() && !named) continue;
    if (arguments.case_ids.empty() && arguments.fast && !c.fast) continue;
    if (!c.renamed_notice.empty())
      std::fprintf(stderr, "sonicsim: note: %s: %s\n", c.file.c_str(), c.renamed_notice.c_str());
    cases.push_back(std::move(c));
  }
  if (files.empty()) throw InputError("no validation cases (*.yaml) in " + cases_dir.string());
  // Two cases with one id would overwrite each other's verdict in the report.
  for (std::size_t i = 0; i < cases.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (cases[i].id == cases[j].id)
        throw ScenarioError(cases[i].file, 0, 0, "id",
                            "'" + cases[i].id + "' is also the id of " + cases[j].file +
                                "; expected unique ids");
  for (const auto& id : arguments.case_ids) {
    if (std::none_of(cases.begin(), cases.end(), [&id](const ValidationCase& c) { return c.id == id; }))
      throw InputError("no validation case '" + id + "' in " + cases_dir.string());
  }
  return cases;
}

// Runs these requests of the batch (each with its baseline, joined after) into `summaries`; false when they
// were submitted to a cluster (its merge job writes the report).
bool run_requests(const ExecutionContext& context, const ValidationBatch& batch,
                  std::vector<std::size_t> indices, std::vector<RunSummary>& summaries,
                  std::vector<bool>& ran) {
  for (std::size_t k = 0, n = indices.size(); k < n; ++k) {
    const auto direct = batch.baseline_of.find(indices[k]);
    if (direct != batch.baseline_of.end() && !ran[direct->second] &&
        std::find(indices.begin(), indices.end(), direct->second) == indices.end())
      indices.push_back(direct->second);
  }
  std::vector<SimulationRequest> some;
  for (const auto i : indices)
    some.push_back(batch.requests[i]);
  const auto simulated = run_or_submit(context, some);
  if (!simulated) return false;
  std::size_t missing = 0;
  for (std::size_t k = 0; k < indices.size(); ++k) {
    const std::size_t i = indices[k];
    if (!(*simulated)[k].ok) {
      std::fprintf(stderr, "sonicsim: simulation %zu (%s): %s\n", i + 1, batch.runs[i].scenario_path.c_str(),
                   (*simulated)[k].error.c_str());
      ++missing;
      continue;
    }
    summaries[i] = (*simulated)[k].summary;
    ran[i] = true;
  }
  for (const auto& [service, direct] : batch.baseline_of)
    if (ran[service] && ran[direct] && std::find(indices.begin(), indices.end(), service) != indices.end())
      compare_with_direct(summaries[service], summaries[direct]);
  if (missing > 0)
    throw std::runtime_error(std::to_string(missing) + " of " + std::to_string(indices.size()) +
                             " simulations have no result; no report written" +
                             (context.options.on_cluster() ? ". Run the same command with --slurm again: it "
                                                             "submits only those"
                                                           : ""));
  return true;
}

// The cases' outcomes; none when the simulations were submitted. Here, the crossing cases' points past their
// first two wait for the waves (sim/validation/crossing_waves.hpp); a cluster gets every point at once.
std::optional<std::vector<CaseOutcome>> simulate_cases(const ExecutionContext& context,
                                                       const std::vector<ValidationCase>& cases,
                                                       const ValidationBatch& batch) {
  const std::size_t count = batch.requests.size();
  const bool waves = !context.options.on_cluster();
  std::vector<bool> deferred = waves ? wave_runs(cases, batch.runs_of_case, count) : std::vector<bool>(count);
  for (const auto& [service, direct] : batch.baseline_of)
    deferred[direct] = deferred[service];
  std::vector<RunSummary> summaries(count);
  std::vector<bool> ran(count, false);
  std::vector<std::size_t> first;
  for (std::size_t i = 0; i < count; ++i)
    if (!deferred[i]) first.push_back(i);
  if (!run_requests(context, batch, first, summaries, ran)) return std::nullopt;
  const auto crossings = waves ? crossings_in_waves(cases, batch.runs_of_case, summaries, ran,
                                                    [&](const std::vector<std::size_t>& wave) {
                                                      run_requests(context, batch, wave, summaries, ran);
                                                    })
                               : std::vector<std::vector<std::optional<double>>>(cases.size());
  throw_if_interrupted("every simulation had finished; no report written");
  std::vector<CaseOutcome> outcomes;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    std::vector<RunSummary> case_summaries;
    for (const auto index : batch.runs_of_case[i])
      case_summaries.push_back(summaries[index]);
    outcomes.push_back(evaluate(cases[i], case_summaries, crossings[i].empty() ? nullptr : &crossings[i]));
  }
  return outcomes;
}

// The closing line: passes, known discrepancies and failures; predictions reproduced and drifted.
void say_counts(bool table, int measured, int failures, int known, int predictions, int drifted) {
  // A known discrepancy is outside its tolerance: counted apart, never as a pass.
  std::fprintf(table ? stdout : stderr,
               "%d passed, %d known discrepanc%s (outside tolerance, reason stated), %d failed",
               measured - failures - known, known, known == 1 ? "y" : "ies", failures);
  if (predictions > 0)
    std::fprintf(table ? stdout : stderr, "; %d predictions reproduced, %d drifted from their prediction",
                 predictions - drifted, drifted);
  std::fprintf(table ? stdout : stderr, "\n");
}

// How the cases came out: measured ones failed or known discrepancies, predictions drifted.
struct VerdictCounts {
  int failures = 0, predictions = 0, drifted = 0, known = 0;
};

// The table of every case (with `table`) and the counts of its verdicts.
VerdictCounts print_verdicts(const std::vector<ValidationCase>& cases,
                             const std::vector<CaseOutcome>& outcomes, bool table) {
  // Measured cases first; prediction cases apart: they check the simulation against its own prediction (a
  // regression check), never a measurement, so they are not counted as passes.
  VerdictCounts counts;
  for (const bool predicted : {false, true}) {
    bool heading = false;
    for (std::size_t i = 0; i < cases.size(); ++i) {
      if (cases[i].predicted.has_value() != predicted) continue;
      const auto& o = outcomes[i];
      counts.predictions += predicted ? 1 : 0;
      (predicted ? counts.drifted : counts.failures) += o.verdict == Verdict::fail ? 1 : 0;
      counts.known += !predicted && o.verdict == Verdict::known_discrepancy ? 1 : 0;
      if (!table) continue;
      if (!heading)
        std::printf(predicted
                        ? "\npredictions (not measurements: the simulation against the prediction it made, "
                          "a regression check)\n%-34s %14s %10s %14s %8s %11s  %s\n"
                        : "%-34s %14s %10s %14s %8s %11s  %s\n",
                    "case", predicted ? "predicted" : "measured", "analytic", "simulated", "error",
                    "tolerance", predicted ? "check" : "verdict");
      heading = true;
      char error[32] = "-";
      if (o.error) std::snprintf(error, sizeof error, "%.1f%%", 100.0 * *o.error);
      std::printf("%-34s %14s %10s %14s %8s %11s  %s\n", cases[i].id.c_str(),
                  reference_text(cases[i], o).c_str(), number_or_dash(o.analytic).c_str(),
                  simulated_text(o).c_str(), error, tolerance_text(cases[i]).c_str(),
                  prediction_check_text(cases[i], o.verdict));
    }
  }
  return counts;
}

int validate(const ValidateArguments& arguments) {
  const ExecutionOptions execution =
      execution_options(arguments.execution, arguments.quiet || arguments.json);
  const fs::path cases_dir =
      arguments.cases_dir.empty() ? default_cases_dir() : fs::path(arguments.cases_dir);
  if (!fs::is_directory(cases_dir)) throw InputError("no validation cases directory " + cases_dir.string());
  // The report directory is checked before anything runs: a typo there must not cost the whole validation.
  const bool writes_report = !arguments.report_dir.empty() || (arguments.case_ids.empty() && !arguments.fast);
  const fs::path report_dir =
      arguments.report_dir.empty() ? cases_dir.parent_path() : fs::path(arguments.report_dir);
  if (writes_report) ensure_writable_directory(report_dir);
  const auto committed =
      arguments.against.empty() ? std::nullopt : std::optional(read_accuracy_table(arguments.against));
  const std::vector<ValidationCase> cases = select_cases(arguments, cases_dir);
  ValidationBatch batch = plan_batch(cases);
  if (!arguments.quiet && !arguments.json)
    std::fprintf(stderr, "validate: %zu cases, %zu simulations\n", cases.size(), batch.runs.size());
  const ExecutionContext context{execution, arguments.work_dir, "validate",
                                 "the report in " + report_dir.string()};
  const auto outcomes = simulate_cases(context, cases, batch);
  if (!outcomes) return exit_ok; // submitted: the merge job writes the report
  const bool table = !arguments.quiet && !arguments.json;
  const auto [failures, predictions, drifted, known] = print_verdicts(cases, *outcomes, table);
  if (writes_report) {
    write_reports(report_dir, cases, *outcomes);
    if (table) std::printf("\nwrote %s and report.json\n", (report_dir / "report.md").string().c_str());
    std::fflush(stdout);
    write_html_report_if_asked(arguments.html, report_dir, !table);
  }
  if (arguments.json) std::printf("%s\n", json_text(outcomes_to_json(cases, *outcomes), 1).c_str());
  if (table || failures > 0 || drifted > 0)
    say_counts(table, static_cast<int>(cases.size()) - predictions, failures, known, predictions, drifted);
  const int regressions =
      committed ? report_against(*committed, arguments.against, cases, *outcomes, table) : 0;
  return failures == 0 && drifted == 0 && regressions == 0 ? exit_ok : exit_run_failed;
}

} // namespace

void register_validate_command(CLI::App& app, int& result) {
  auto arguments = std::make_shared<ValidateArguments>();
  auto* command = app.add_subcommand("validate", "Run the validation cases against measured data and write "
                                                 "validation/report.md (exit 1 if a case fails)");
  command->add_option("cases", arguments->case_ids, "Case ids to run (default: all)");
  command->add_option("--cases-dir", arguments->cases_dir,
                      "Directory of case files (default: validation/cases)");
  command
      ->add_option("--report", arguments->report_dir,
                   "Where to write report.md and report.json (default: validation/ when all cases run)")
      ->check(directory_path);
  command->add_flag("--fast", arguments->fast, "Only the quick cases (those marked fast: true), as CI runs");
  add_execution_options(*command, arguments->execution, ExecutionShape::simulations);
  command
      ->add_option("--work-dir", arguments->work_dir,
                   "With --slurm: where the batch, its logs and results go, on a file system the nodes "
                   "share (default out/validate); results found there are not run again")
      ->check(directory_path);
  command->add_option("--against", arguments->against,
                      "A committed accuracy table (validation/accuracy.json): exit 1 when a released case "
                      "stopped passing or its error grew by more than 2 points and 10 % of itself");
  add_html_option(*command, arguments->html);
  add_output_options(*command, arguments->quiet, &arguments->json);
  command->callback([arguments, &result]() { result = guarded_batches(*arguments, validate); });
}

} // namespace sonicsim

// `sonicsim sweep`: one simulation per point of a grid of scenario values (--vary), each in its own process,
// with the analytic and MVA predictions of the same scenario in adjacent columns, and the plateau/knee/slope
// fits of the simulated and analytic module-time curves. Results are kept per point (DIR/points/) as they
// finish, so an interrupted sweep loses only the points that were running; --resume runs the rest and --shard
// i/n splits a sweep over machines (merge by copying the points/ directories together and running --merge).
// --slurm submits the shards as a Slurm job array and the merge as a job that depends on it
// (sim/execution/cluster.hpp); DIR/sweep_plan.json lists every simulation and its shard, for `sonicsim status
// DIR`.
//
// Where a simulation runs never changes it: replication r of every point has the seed
// replication_seed(scenario seed, r) and the point's own overrides, whichever machine, shard or array task
// runs it, so a sweep on Slurm and the same sweep run here give byte-identical points and sweep.csv.
#include "sim/app/commands.hpp"
#include "sim/app/run/html_report.hpp"
#include "sim/metrics/json_fields.hpp"

#include "sim/metrics/number_text.hpp"

#include "sim/app/common/execution_flags.hpp"
#include "sim/app/common/output_options.hpp"
#include "sim/app/common/scenario_source.hpp"
#include "sim/app/sweep/sweep_layout.hpp"
#include "sim/app/sweep/sweep_point_files.hpp"
#include "sim/engine/engine_arguments.hpp"
#include "sim/engine/output_files.hpp"
#include "sim/execution/cluster.hpp"
#include "sim/execution/interruption.hpp"
#include "sim/execution/local_pool.hpp"
#include "sim/execution/process_arguments.hpp"
#include "sim/execution/progress.hpp"
#include "sim/execution/scenario_recipe.hpp"
#include "sim/execution/shell_commands.hpp"
#include "sim/execution/state_file.hpp"
#include "sim/metrics/summary_json.hpp"
#include "sim/random/replication_seed.hpp"
#include "sim/scenario/overrides.hpp"
#include "sim/scenario/scenario_error.hpp"
#include "sim/sweep/sweep_grid.hpp"
#include "sim/sweep/sweep_json.hpp"
#include "sim/sweep/sweep_table.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <thread>

#include <unistd.h>

namespace sonicsim {
namespace {

constexpr const char* default_vary = "workload.jobs=1:500:20";

struct SweepArguments {
  ScenarioSource source;
  bool html = false; // --html: report.html beside the results
  std::vector<std::string> vary;
  std::string output_dir;
  std::string shard;
  bool resume = false;
  bool merge_only = false;
  int replications = 1;
  bool quiet = false;
  bool json = false; // the result (sweep.csv's and fits.csv's numbers) as one JSON document on stdout
  ExecutionFlags execution{hardware_threads()};
};

// The sweep as a command line that a Slurm job can run from `working_dir`: the same scenario, overrides, axes
// and replications, into the absolute `output_dir`.
std::vector<std::string> sweep_command_line(const SweepArguments& arguments,
                                            const std::filesystem::path& output_dir) {
  std::vector<std::string> words = own_command("sweep", EngineCommandLine::user_settings());
  if (!arguments.source.path.empty())
    words.push_back(std::filesystem::absolute(arguments.source.path).string());
  for (const auto& variant : arguments.source.variants) {
    words.push_back("--variant");
    words.push_back(variant);
  }
  for (const auto& set : arguments.source.set_overrides) {
    words.push_back("--set");
    words.push_back(set);
  }
  if (arguments.source.seed) {
    words.push_back("--seed");
    words.push_back(std::to_string(*arguments.source.seed));
  }
  for (const auto& vary : arguments.vary.empty() ? std::vector<std::string>{default_vary} : arguments.vary) {
    words.push_back("--vary");
    words.push_back(vary);
  }
  words.push_back("--replications");
  words.push_back(std::to_string(arguments.replications));
  words.push_back("--out");
  words.push_back(output_dir.string());
  return words;
}

// The sweep as an array of shards and a merge job; returns at once.
int submit_sweep(const SweepLayout& layout, const SweepArguments& arguments,
                 const ExecutionOptions& execution) {
  const auto& units = layout.units;
  const auto& output_dir = layout.output_dir;
  const Scenario& first = layout.first();
  const int shards = cluster_shards(layout, execution);
  const std::filesystem::path absolute_dir = std::filesystem::absolute(output_dir);
  ShardWork work;
  work.task_command = sweep_command_line(arguments, absolute_dir);
  work.merge_command = work.task_command;
  work.merge_command.push_back("--merge");
  work.shards = shards;
  std::size_t already = 0;
  if (arguments.resume) {
    // Only the shards with a simulation still missing.
    std::vector<bool> missing(static_cast<std::size_t>(shards) + 1, false);
    for (const SweepUnit& unit : units) {
      if (read_point_file(output_dir, unit.index, unit.replication, unit.fingerprint))
        ++already;
      else
        missing[1 + unit.index % static_cast<std::size_t>(shards)] = true;
    }
    for (int s = 1; s <= shards; ++s)
      if (missing[static_cast<std::size_t>(s)]) work.shards_to_run.push_back(s);
    if (work.shards_to_run.empty()) {
      std::printf("sweep of %s: all %zu simulations are done in %s; nothing to submit (run with --merge to "
                  "write sweep.csv)\n",
                  first.name.c_str(), units.size(), output_dir.string().c_str());
      return exit_ok;
    }
  }
  const auto cluster = make_cluster(execution, output_dir, "sweep");
  const Submission submission = cluster->submit_shards(work);
  const std::size_t shards_run =
      work.shards_to_run.empty() ? static_cast<std::size_t>(shards) : work.shards_to_run.size();
  std::printf("sweep of %s: %zu simulations in %d shards (%zu already done); %zu array task(s)\n",
              first.name.c_str(), units.size(), shards, already, shards_run);
  std::printf("  array script  %s\n  merge script  %s\n", submission.array_script.string().c_str(),
              submission.merge_script.string().c_str());
  if (submission.array_job.empty()) {
    cluster->print_dry_run(submission);
  } else {
    std::printf("submitted: array job %s, merge job %s (after the array)\n", submission.array_job.c_str(),
                submission.merge_job.c_str());
    std::printf("follow with: sonicsim status %s\n", shell_quote(absolute_dir.string()).c_str());
  }
  return exit_ok;
}

struct SweepResults {
  std::map<std::pair<std::size_t, int>, RunSummary> finished; // (point, replication)
  std::vector<std::pair<std::size_t, std::string>> failures;  // unit, message
  std::size_t ran = 0;
};

// Runs this machine's share (the whole sweep, or a shard) of what has no point file yet, and reads the
// finished points: this shard's with --resume, and always those of other shards (a merge).
SweepResults run_sweep_here(const SweepLayout& layout, const SweepArguments& arguments,
                            const ExecutionOptions& execution) {
  const auto& units = layout.units;
  const auto& axes = layout.axes;
  const auto& grid = layout.grid;
  const auto& output_dir = layout.output_dir;
  const Shard& shard = layout.shard;
  const int parallel = execution.parallel;
  const int replications = layout.replications;
  const Scenario& first = layout.first();
  SweepResults results;
  auto& finished = results.finished;
  auto& failures = results.failures;
  std::vector<std::size_t> to_run; // into units
  for (std::size_t u = 0; u < units.size(); ++u) {
    const SweepUnit& unit = units[u];
    const bool mine = shard.contains(unit.index);
    const auto key = std::make_pair(unit.index, unit.replication);
    if (!mine || arguments.resume || arguments.merge_only) {
      if (auto summary = read_point_file(output_dir, unit.index, unit.replication, unit.fingerprint))
        finished.emplace(key, std::move(*summary));
    }
    if (mine && !arguments.merge_only && !finished.count(key)) to_run.push_back(u);
  }
  if (!arguments.quiet && !arguments.json) {
    std::printf("sweep of %s: %zu points", first.name.c_str(), grid.size());
    if (replications > 1) std::printf(" x %d replications (each counted below)", replications);
    if (shard.count > 1) std::printf(", shard %d/%d", shard.index, shard.count);
    std::printf("; %zu to run (-j %d), %zu already done; results in %s\n", to_run.size(), parallel,
                finished.size(), output_dir.string().c_str());
  }

  std::vector<SimulationRequest> requests;
  for (const std::size_t u : to_run)
    requests.push_back(SimulationRequest{units[u].scenario, {}, {}});
  // Ctrl-C: the finished points are on disk already; say so, and how to run the rest.
  const Interruptible note{"the finished points are kept in " + (output_dir / "points").string() +
                           "; the same command with --resume runs the rest"};
  note.run([&] {
    run_here(requests, parallel, "sweep", execution.quiet,
             [&](std::size_t k, const SimulationOutcome& outcome) {
               const SweepUnit& unit = units[to_run[k]];
               if (!outcome.ok) {
                 failures.emplace_back(to_run[k], outcome.error);
                 return;
               }
               write_point_file(output_dir, PointRecord{unit.index, unit.replication,
                                                        point_overrides(axes, grid[unit.index]),
                                                        unit.fingerprint, outcome.wall_clock_s,
                                                        json_text(run_summary_to_json(outcome.summary))});
               finished.emplace(std::make_pair(unit.index, unit.replication), outcome.summary);
             });
  });

  results.ran = to_run.size();
  return results;
}

// The points whose every replication has finished: a point is in sweep.csv when all its replications are (a
// partial point would look like a complete one).
std::vector<SweepRow> complete_rows(const SweepLayout& layout,
                                    const std::map<std::pair<std::size_t, int>, RunSummary>& finished) {
  std::vector<SweepRow> rows;
  for (const auto& point : layout.grid) {
    std::vector<RunSummary> summaries;
    for (int r = 0; r < layout.replications; ++r) {
      const auto found = finished.find(std::make_pair(point.index, r));
      if (found == finished.end()) break;
      summaries.push_back(found->second);
    }
    if (static_cast<int>(summaries.size()) == layout.replications)
      rows.push_back(make_sweep_row(point, layout.unit_of(point.index, 0).scenario, summaries));
  }
  return rows;
}

// How many simulations are missing, and the first 20 as point[/replication].
std::pair<std::size_t, std::string>
missing_simulations(const std::vector<SweepPoint>& grid,
                    const std::map<std::pair<std::size_t, int>, RunSummary>& finished, int replications) {
  std::vector<std::string> missing;
  for (const auto& point : grid)
    for (int r = 0; r < replications; ++r)
      if (!finished.count(std::make_pair(point.index, r)))
        missing.push_back(std::to_string(point.index) + (replications > 1 ? "/r" + std::to_string(r) : ""));
  std::string list;
  for (std::size_t i = 0; i < missing.size() && i < 20; ++i)
    list += (i ? ", " : "") + missing[i];
  if (missing.size() > 20) list += ", ...";
  return {missing.size(), list};
}

// sweep.csv and fits.csv once every point is there (a shard writes its points only), else what is missing.
int write_sweep_results(const SweepLayout& layout, const SweepArguments& arguments,
                        const SweepResults& results, double elapsed_s) {
  const auto& units = layout.units;
  const auto& axes = layout.axes;
  const auto& grid = layout.grid;
  const auto& output_dir = layout.output_dir;
  const Shard& shard = layout.shard;
  const int replications = layout.replications;
  const auto& finished = results.finished;
  const auto& failures = results.failures;
  const auto report_failures = [&](const std::vector<std::pair<std::size_t, std::string>>& failed) {
    for (const auto& [u, message] : failed)
      std::fprintf(stderr, "sonicsim: point %zu (%s) replication %d failed: %s\n", units[u].index,
                   point_overrides(axes, grid[units[u].index]).front().c_str(), units[u].replication,
                   message.c_str());
  };
  const std::vector<SweepRow> rows = complete_rows(layout, finished);
  // A shard writes its points only: sweep.csv is written by a whole sweep or by --merge, once every point is
  // there, so that a shard's share never looks like the whole.
  if (shard.count > 1) {
    if (!arguments.quiet && !arguments.json)
      std::printf(
          "shard %d/%d: %zu simulation(s) run, %zu failed, in %.1f s; the sweep has %zu of %zu points "
          "complete. When every shard is done: sonicsim sweep ... --merge --out %s\n",
          shard.index, shard.count, results.ran - failures.size(), failures.size(), elapsed_s, rows.size(),
          grid.size(), output_dir.string().c_str());
  } else if (rows.size() < grid.size()) {
    // A sweep.csv left by an earlier run would look like this run's result: it goes too.
    std::error_code ignored;
    std::filesystem::remove(output_dir / "sweep.csv", ignored);
    std::filesystem::remove(output_dir / "fits.csv", ignored);
    const auto [missing, list] = missing_simulations(grid, finished, replications);
    std::fprintf(stderr,
                 "sonicsim: %s%zu of %zu points complete, %zu simulation(s) missing (point[/replication] "
                 "%s); sweep.csv and fits.csv not written. Run the missing ones with --resume (with --slurm: "
                 "resubmits their shards only)\n",
                 arguments.merge_only ? "merge: " : "", rows.size(), grid.size(), missing, list.c_str());
    report_failures(failures);
    return exit_run_failed;
  } else {
    throw_if_interrupted("every point had finished and is kept in " + (output_dir / "points").string() +
                         "; sweep.csv is not written: the same command with --resume writes it");
    std::ostringstream csv;
    write_sweep_csv(csv, axes, rows);
    write_file_atomically(output_dir / "sweep.csv", csv.str());
    const auto fits = fit_module_curves(axes, rows);
    std::ostringstream fits_csv;
    write_fits_csv(fits_csv, fits);
    write_file_atomically(output_dir / "fits.csv", fits_csv.str());

    if (arguments.json) std::printf("%s\n", json_text(sweep_to_json(axes, rows, fits), 1).c_str());
    if (!arguments.quiet && !arguments.json) {
      print_sweep_rows(axes, rows);
      if (!fits.empty())
        print_fits(std::cout, fits);
      else if (axes.front().key != "workload.jobs")
        std::cout << "\nno knee fits: the first --vary is not workload.jobs\n";
      std::printf("\nwrote %s (%zu of %zu points), fits.csv, points/ in %.1f s\n",
                  (output_dir / "sweep.csv").string().c_str(), rows.size(), grid.size(), elapsed_s);
    }
    std::fflush(stdout);
    write_html_report_if_asked(arguments.html, output_dir, arguments.quiet, arguments.json);
  }
  report_failures(failures);
  if (!failures.empty()) {
    std::fprintf(stderr, "sonicsim: %zu simulation(s) failed; run again with --resume to retry them\n",
                 failures.size());
    return exit_run_failed;
  }
  return exit_ok;
}

int sweep(const SweepArguments& arguments) {
  const auto started = std::chrono::steady_clock::now();
  const ExecutionOptions execution = execution_options(arguments.execution, arguments.quiet);
  if (execution.on_cluster() && !arguments.shard.empty())
    throw InputError("--shard: not with --slurm, which gives every array task its own shard");
  if (execution.on_cluster() && arguments.merge_only)
    throw InputError("--merge: not with --slurm (the Slurm submission makes its own merge job)");
  const SweepLayout layout = lay_out_sweep(
      arguments.source, arguments.vary.empty() ? std::vector<std::string>{default_vary} : arguments.vary,
      arguments.shard, arguments.replications, arguments.output_dir);
  ensure_writable_directory(layout.output_dir);
  ensure_writable_directory(layout.output_dir / "points");
  write_sweep_plan(layout, arguments.merge_only, execution);
  if (execution.on_cluster()) return submit_sweep(layout, arguments, execution);
  const SweepResults results = run_sweep_here(layout, arguments, execution);
  return write_sweep_results(
      layout, arguments, results,
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
}

} // namespace

void register_sweep_command(CLI::App& app, int& result) {
  auto arguments = std::make_shared<SweepArguments>();
  auto* command = app.add_subcommand(
      "sweep",
      "Simulate a grid of scenario values (--vary), one process per point, with the analytic and MVA "
      "predictions side by side; writes sweep.csv, fits.csv and points/");
  arguments->source.add_options(*command);
  command
      ->add_option("--vary", arguments->vary,
                   std::string("Vary a scenario key: KEY=start:stop:step (stop included when on the grid) or "
                               "KEY=a,b,c; repeat for a grid (default ") +
                       default_vary + ")")
      ->type_name("KEY=VALUES")
      ->allow_extra_args(false);
  command->add_option("--out", arguments->output_dir, "Output directory (default: out/sweep_<scenario name>)")
      ->check(directory_path);
  command->add_flag("--resume", arguments->resume,
                    "Keep the finished points found in the output directory (with --slurm: submit only the "
                    "shards with points missing)");
  command->add_flag(
      "--merge", arguments->merge_only,
      "Run nothing: write sweep.csv and fits.csv from the points in the output directory; exit 1 "
      "naming the missing ones");
  add_execution_options(*command, arguments->execution, ExecutionShape::shards);
  command
      ->add_option(
          "--replications", arguments->replications,
          "Independent replications per point (seeds derived from the scenario's, the same for every "
          "point): sweep.csv holds means and 95 % interval columns")
      ->check(CLI::Range(1, 1000));
  command
      ->add_option("--shard", arguments->shard, "Run only points i-1, i-1+n, ... of the grid (1 <= i <= n)")
      ->type_name("i/n");
  add_html_option(*command, arguments->html);
  add_output_options(*command, arguments->quiet, &arguments->json);
  command->callback([arguments, &result]() { result = guarded_batches(*arguments, sweep); });
}

} // namespace sonicsim

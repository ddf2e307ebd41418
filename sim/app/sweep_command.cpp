// `sonicsim sweep`: one simulation per point of a grid of scenario values (--vary), each in its own process,
// with the analytic and MVA predictions of the same scenario in adjacent columns, and the plateau/knee/slope
// fits of the simulated and analytic module-time curves. Results are kept per point (DIR/points/) as they
// finish, so an interrupted sweep loses only the points that were running; --resume runs the rest and --shard
// i/n splits a sweep over machines (merge by copying the points/ directories together and running --merge).
// --slurm submits the shards as a Slurm job array and the merge as a job that depends on it (slurm_jobs.hpp);
// DIR/sweep_plan.json lists every simulation and its shard, for `sonicsim status DIR`.
//
// Where a simulation runs never changes it: replication r of every point has the seed
// replication_seed(scenario seed, r) and the point's own overrides, whichever machine, shard or array task
// runs it, so a sweep on Slurm and the same sweep run here give byte-identical points and sweep.csv.
#include "sim/app/commands.hpp"
#include "sim/app/html_report.hpp"

#include "sim/metrics/number_text.hpp"

#include "sim/app/process_pool.hpp"
#include "sim/app/scenario_source.hpp"
#include "sim/app/slurm_jobs.hpp"
#include "sim/app/sweep_point_files.hpp"
#include "sim/engine/engine_arguments.hpp"
#include "sim/engine/output_files.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/metrics/summary_json.hpp"
#include "sim/random/replication_seed.hpp"
#include "sim/scenario/overrides.hpp"
#include "sim/scenario/scenario_error.hpp"
#include "sim/sweep/sweep_grid.hpp"
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
  int parallel = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::string output_dir;
  std::string shard;
  bool resume = false;
  bool merge_only = false;
  int replications = 1;
  SlurmOptions slurm;
};

// One line on stderr, rewritten in place on a terminal and one line per update otherwise (logs, CI).
class ProgressLine {
public:
  explicit ProgressLine(std::size_t total)
      : total_(total), terminal_(::isatty(2) != 0), start_(clock::now()) {}
  void update(std::size_t done, std::size_t running) {
    const double elapsed_s = std::chrono::duration<double>(clock::now() - start_).count();
    char text[160];
    if (done > 0 && done < total_) {
      const double eta_s = elapsed_s / static_cast<double>(done) * static_cast<double>(total_ - done);
      std::snprintf(text, sizeof text,
                    "sweep: %zu/%zu simulations done, %zu running, %.0f s elapsed, ETA %.0f s", done, total_,
                    running, elapsed_s, eta_s);
    } else {
      std::snprintf(text, sizeof text, "sweep: %zu/%zu simulations done, %zu running, %.0f s elapsed", done,
                    total_, running, elapsed_s);
    }
    std::cerr << (terminal_ ? "\r" : "") << text << (terminal_ ? "\x1b[K" : "\n") << std::flush;
  }
  void finish() {
    if (terminal_) std::cerr << "\n";
  }
  double elapsed_s() const { return std::chrono::duration<double>(clock::now() - start_).count(); }

private:
  using clock = std::chrono::steady_clock;
  std::size_t total_;
  bool terminal_;
  clock::time_point start_;
};

void print_rows(const std::vector<VaryAxis>& axes, const std::vector<SweepRow>& rows) {
  std::printf("\n%6s", "point");
  for (const auto& axis : axes)
    std::printf(" %16.16s", axis.key.c_str());
  std::printf(" %10s %10s %10s %10s %8s  %s\n", "module s", "analytic", "MVA", "event s", "GPU %",
              "bottleneck");
  for (const auto& row : rows) {
    std::printf("%6zu", row.point.index);
    for (const auto& value : row.point.values)
      std::printf(" %16.16s", value.c_str());
    const double analytic_s = row.analytic ? row.analytic->sonic_module_s : NAN;
    const double mva_s = row.analytic ? row.analytic->mva_module_s : NAN;
    std::printf(" %10s %10s %10s %10s %8.1f  %s\n", significant(row.mean("module_mean_s")).c_str(),
                significant(analytic_s).c_str(), significant(mva_s).c_str(),
                significant(row.mean("event_mean_s")).c_str(), 100.0 * row.mean("gpu_utilisation"),
                row.bottleneck.c_str());
  }
}

// The sweep as a command line that a Slurm job can run from `working_dir`: the same scenario, overrides, axes
// and replications, into the absolute `output_dir`.
std::vector<std::string> sweep_command_line(const SweepArguments& arguments,
                                            const std::filesystem::path& output_dir) {
  std::vector<std::string> words{own_executable()};
  for (const auto& setting : EngineCommandLine::user_settings()) {
    words.push_back("--cfg");
    words.push_back(setting);
  }
  words.push_back("sweep");
  if (!arguments.source.path.empty())
    words.push_back(std::filesystem::absolute(arguments.source.path).string());
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

int sweep(const SweepArguments& arguments) {
  if (arguments.slurm.enabled() && !arguments.shard.empty())
    throw InputError("--shard: not with --slurm, which gives every array task its own shard");
  if (arguments.slurm.wait || arguments.slurm.collect)
    throw InputError(
        "--slurm-wait/--slurm-collect: not for sweep, whose --slurm submits the shards and a merge "
        "job and returns (follow it with sonicsim status DIR; --merge writes sweep.csv here)");
  if (arguments.slurm.enabled() && arguments.merge_only)
    throw InputError("--merge: not with --slurm (the Slurm submission makes its own merge job)");
  // Everything the user wrote is checked before the first point runs.
  std::vector<VaryAxis> axes;
  for (const auto& vary : arguments.vary.empty() ? std::vector<std::string>{default_vary} : arguments.vary)
    axes.push_back(parse_vary(vary));
  const Shard shard = arguments.shard.empty() ? Shard{} : parse_shard(arguments.shard);
  const std::vector<SweepPoint> grid = build_grid(axes);
  // One simulation per (point, replication); replication r of every point uses replication_seed(seed, r), so
  // the points of a replicated sweep share their random numbers replication by replication.
  const int replications = arguments.replications;
  struct Unit {
    std::size_t index = 0;
    int replication = 0;
    Scenario scenario;
    std::string fingerprint;
  };
  std::vector<Unit> units;
  units.reserve(grid.size() * replications);
  for (const auto& point : grid) {
    const auto overrides = point_overrides(axes, point);
    Scenario scenario;
    try {
      scenario = arguments.source.load(overrides);
    } catch (const ScenarioError& error) {
      // Told at the --vary value that made the point, not as a --set.
      for (std::size_t a = 0; a < axes.size(); ++a)
        if (error.file == "--set " + overrides[a] ||
            std::string(error.what()).find(overrides[a]) != std::string::npos)
          rethrow_at_origin(error, overrides[a],
                            "--vary " + axes[a].key + " value '" + point.values[a] + "'");
      throw;
    }
    for (int r = 0; r < replications; ++r) {
      Unit unit{point.index, r, scenario, {}};
      unit.scenario.seed = replication_seed(scenario.seed, r);
      unit.fingerprint = scenario_fingerprint(unit.scenario);
      units.push_back(std::move(unit));
    }
  }
  const auto unit_of = [&](std::size_t index, int r) -> const Unit& {
    return units[index * static_cast<std::size_t>(replications) + r];
  };
  const Scenario& first = units.front().scenario;
  const std::filesystem::path output_dir = arguments.output_dir.empty()
                                               ? std::filesystem::path("out") / ("sweep_" + first.name)
                                               : std::filesystem::path(arguments.output_dir);
  ensure_writable_directory(output_dir);
  ensure_writable_directory(output_dir / "points");

  // Every simulation, its shard (as Slurm runs it) and its fingerprint, for `sonicsim status`.
  const int slurm_shards = arguments.slurm.tasks > 0
                               ? std::min<int>(arguments.slurm.tasks, static_cast<int>(grid.size()))
                               : static_cast<int>(std::min<std::size_t>(grid.size(), 1000));
  const int plan_shards = arguments.slurm.enabled() ? slurm_shards : std::max(1, shard.count);
  {
    nlohmann::ordered_json plan{{"command", "sweep"},
                                {"points", grid.size()},
                                {"replications", replications},
                                {"shards", plan_shards},
                                {"simulations", nlohmann::ordered_json::array()}};
    for (const Unit& unit : units)
      plan["simulations"].push_back({{"point", unit.index},
                                     {"replication", unit.replication},
                                     {"shard", 1 + unit.index % static_cast<std::size_t>(plan_shards)},
                                     {"fingerprint", unit.fingerprint}});
    // Written by the run that lays the sweep out (a Slurm submission, or a whole sweep here); the shards and
    // the merge of a submission keep it, so its shard numbers stay those of the array.
    if (arguments.slurm.enabled() || (!arguments.merge_only && shard.count <= 1) ||
        !std::filesystem::exists(output_dir / "sweep_plan.json"))
      write_file_atomically(output_dir / "sweep_plan.json", plan.dump(1) + "\n");
  }

  if (arguments.slurm.enabled()) {
    SlurmWork work;
    work.name = "sonicsim-sweep";
    work.output_dir = std::filesystem::absolute(output_dir);
    work.working_dir = std::filesystem::current_path();
    work.task_command = sweep_command_line(arguments, work.output_dir);
    work.merge_command = work.task_command;
    work.merge_command.push_back("--merge");
    work.shards = slurm_shards;
    std::size_t already = 0;
    if (arguments.resume) {
      // Only the shards with a simulation still missing.
      std::vector<bool> missing(static_cast<std::size_t>(slurm_shards) + 1, false);
      for (const Unit& unit : units) {
        if (read_point_file(output_dir, unit.index, unit.replication, unit.fingerprint))
          ++already;
        else
          missing[1 + unit.index % static_cast<std::size_t>(slurm_shards)] = true;
      }
      for (int s = 1; s <= slurm_shards; ++s)
        if (missing[static_cast<std::size_t>(s)]) work.shards_to_run.push_back(s);
      if (work.shards_to_run.empty()) {
        std::printf("sweep of %s: all %zu simulations are done in %s; nothing to submit (run with --merge to "
                    "write sweep.csv)\n",
                    first.name.c_str(), units.size(), output_dir.string().c_str());
        return exit_ok;
      }
    }
    const SlurmSubmission submission = submit_to_slurm(work, arguments.slurm);
    const std::size_t shards_run =
        work.shards_to_run.empty() ? static_cast<std::size_t>(slurm_shards) : work.shards_to_run.size();
    std::printf("sweep of %s: %zu simulations in %d shards (%zu already done); %zu array task(s)\n",
                first.name.c_str(), units.size(), slurm_shards, already, shards_run);
    std::printf("  array script  %s\n  merge script  %s\n", submission.array_script.string().c_str(),
                submission.merge_script.string().c_str());
    if (submission.array_job.empty()) {
      print_dry_run(submission);
    } else {
      std::printf("submitted: array job %s, merge job %s (after the array)\n", submission.array_job.c_str(),
                  submission.merge_job.c_str());
      std::printf("follow with: sonicsim status %s\n", shell_quote(work.output_dir.string()).c_str());
    }
    return exit_ok;
  }

  // Finished simulations: this shard's with --resume, and always those of other shards (a merge).
  std::map<std::pair<std::size_t, int>, RunSummary> finished;
  std::vector<std::size_t> to_run; // into units
  for (std::size_t u = 0; u < units.size(); ++u) {
    const Unit& unit = units[u];
    const bool mine = shard.contains(unit.index);
    const auto key = std::make_pair(unit.index, unit.replication);
    if (!mine || arguments.resume || arguments.merge_only) {
      if (auto summary = read_point_file(output_dir, unit.index, unit.replication, unit.fingerprint))
        finished.emplace(key, std::move(*summary));
    }
    if (mine && !arguments.merge_only && !finished.count(key)) to_run.push_back(u);
  }
  std::printf("sweep of %s: %zu points", first.name.c_str(), grid.size());
  if (replications > 1) std::printf(" x %d replications (each counted below)", replications);
  if (shard.count > 1) std::printf(", shard %d/%d", shard.index, shard.count);
  std::printf("; %zu to run (-j %d), %zu already done; results in %s\n", to_run.size(), arguments.parallel,
              finished.size(), output_dir.string().c_str());

  std::vector<std::pair<std::size_t, std::string>> failures; // unit, message
  ProgressLine progress(to_run.size());
  std::size_t done = 0;
  if (!to_run.empty())
    progress.update(0, std::min<std::size_t>(to_run.size(), static_cast<std::size_t>(arguments.parallel)));
  run_in_child_processes(
      to_run.size(), arguments.parallel,
      [&](std::size_t k) {
        return run_summary_to_json(run_simulation(units[to_run[k]].scenario, RunOptions{}).summary).dump();
      },
      [&](std::size_t k, const ChildResult& child) {
        const Unit& unit = units[to_run[k]];
        ++done;
        if (child.ok) {
          write_point_file(output_dir,
                           PointRecord{unit.index, unit.replication, point_overrides(axes, grid[unit.index]),
                                       unit.fingerprint, child.wall_clock_s, child.output});
          finished.emplace(std::make_pair(unit.index, unit.replication),
                           run_summary_from_json(nlohmann::ordered_json::parse(child.output)));
        } else {
          failures.emplace_back(to_run[k], child.output);
        }
        const std::size_t remaining = to_run.size() - done;
        progress.update(done, std::min<std::size_t>(remaining, static_cast<std::size_t>(arguments.parallel)));
      });
  if (!to_run.empty()) progress.finish();

  const auto report_failures = [&](const std::vector<std::pair<std::size_t, std::string>>& failed) {
    for (const auto& [u, message] : failed)
      std::fprintf(stderr, "sonicsim: point %zu (%s) replication %d failed: %s\n", units[u].index,
                   point_overrides(axes, grid[units[u].index]).front().c_str(), units[u].replication,
                   message.c_str());
  };
  // A point is in sweep.csv when all its replications are: a partial point would look like a complete one.
  std::vector<SweepRow> rows;
  for (const auto& point : grid) {
    std::vector<RunSummary> summaries;
    for (int r = 0; r < replications; ++r) {
      const auto found = finished.find(std::make_pair(point.index, r));
      if (found == finished.end()) break;
      summaries.push_back(found->second);
    }
    if (static_cast<int>(summaries.size()) == replications)
      rows.push_back(make_sweep_row(point, unit_of(point.index, 0).scenario, summaries));
  }
  // A shard writes its points only: sweep.csv is written by a whole sweep or by --merge, once every point is
  // there, so that a shard's share never looks like the whole.
  if (shard.count > 1) {
    std::printf("shard %d/%d: %zu simulation(s) run, %zu failed, in %.1f s; the sweep has %zu of %zu points "
                "complete. When every shard is done: sonicsim sweep ... --merge --out %s\n",
                shard.index, shard.count, to_run.size() - failures.size(), failures.size(),
                progress.elapsed_s(), rows.size(), grid.size(), output_dir.string().c_str());
  } else if (rows.size() < grid.size()) {
    // A sweep.csv left by an earlier run would look like this run's result: it goes too.
    std::error_code ignored;
    std::filesystem::remove(output_dir / "sweep.csv", ignored);
    std::filesystem::remove(output_dir / "fits.csv", ignored);
    std::vector<std::string> missing;
    for (const auto& point : grid)
      for (int r = 0; r < replications; ++r)
        if (!finished.count(std::make_pair(point.index, r)))
          missing.push_back(std::to_string(point.index) + (replications > 1 ? "/r" + std::to_string(r) : ""));
    std::string list;
    for (std::size_t i = 0; i < missing.size() && i < 20; ++i)
      list += (i ? ", " : "") + missing[i];
    if (missing.size() > 20) list += ", ...";
    std::fprintf(stderr,
                 "sonicsim: %s%zu of %zu points complete, %zu simulation(s) missing (point[/replication] "
                 "%s); sweep.csv and fits.csv not written. Run the missing ones with --resume (with --slurm: "
                 "resubmits their shards only)\n",
                 arguments.merge_only ? "merge: " : "", rows.size(), grid.size(), missing.size(),
                 list.c_str());
    report_failures(failures);
    return exit_run_failed;
  } else {
    std::ostringstream csv;
    write_sweep_csv(csv, axes, rows);
    write_file_atomically(output_dir / "sweep.csv", csv.str());
    const auto fits = fit_module_curves(axes, rows);
    std::ostringstream fits_csv;
    write_fits_csv(fits_csv, fits);
    write_file_atomically(output_dir / "fits.csv", fits_csv.str());

    print_rows(axes, rows);
    if (!fits.empty())
      print_fits(std::cout, fits);
    else if (axes.front().key != "workload.jobs")
      std::cout << "\nno knee fits: the first --vary is not workload.jobs\n";
    std::printf("\nwrote %s (%zu of %zu points), fits.csv, points/ in %.1f s\n",
                (output_dir / "sweep.csv").string().c_str(), rows.size(), grid.size(), progress.elapsed_s());
    std::fflush(stdout);
    write_html_report_if_asked(arguments.html, output_dir);
  }
  report_failures(failures);
  if (!failures.empty()) {
    std::fprintf(stderr, "sonicsim: %zu simulation(s) failed; run again with --resume to retry them\n",
                 failures.size());
    return exit_run_failed;
  }
  return exit_ok;
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
      ->type_name("KEY=VALUES");
  command
      ->add_option("-j,--parallel", arguments->parallel,
                   "Points simulated at once (default: hardware threads)")
      ->check(CLI::Range(1, 1024));
  command->add_option("--out", arguments->output_dir, "Output directory (default: out/sweep_<scenario name>)")
      ->check(directory_path);
  command->add_flag("--resume", arguments->resume,
                    "Keep the finished points found in the output directory (with --slurm: submit only the "
                    "shards with points missing)");
  command->add_flag(
      "--merge", arguments->merge_only,
      "Run nothing: write sweep.csv and fits.csv from the points in the output directory; exit 1 "
      "naming the missing ones");
  add_slurm_options(*command, arguments->slurm, true);
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
  command->callback([arguments, &result]() { result = guarded(*arguments, sweep); });
}

} // namespace sonicsim

// `sonicsim report DIR... [--out FILE]`: one HTML file, opened offline in any browser, with the charts of
// every result directory given (run, sweep, plan, compare, validate, calibrate; a campaign run adds its
// traffic fit and event-time histogram).
#include "sim/app/commands.hpp"
#include "sim/app/common/input_files.hpp"
#include "sim/app/common/output_options.hpp"
#include "sim/app/common/scenario_source.hpp"
#include "sim/app/run/html_report.hpp"
#include "sim/app/sweep/sweep_point_files.hpp"
#include "sim/calibration/measured_series.hpp"
#include "sim/engine/output_files.hpp"
#include "sim/execution/state_file.hpp"
#include "sim/report/report_javascript.hpp"
#include "sim/report/report_sections.hpp"
#include "sim/report/result_checks.hpp"
#include "sim/scenario/input_error.hpp"
#include "sim/validation/validation_case.hpp"

#include <cstdio>
#include <memory>

namespace sonicsim {

namespace fs = std::filesystem;

namespace {

// Each validation case with a dataset: its measured series, read and checked as calibrate reads one.
std::vector<report::MeasuredSeries> measured_series_of(const std::vector<std::string>& measured_cases) {
  std::vector<report::MeasuredSeries> measured;
  for (const auto& path : measured_cases) {
    const ValidationCase c = load_validation_case(path);
    if (!c.dataset)
      throw InputError(
          "--measured " + path +
          ": the case has no dataset (dataset: {file, series, x, y, sd}); "
          "expected a validation case of a measured curve, e.g. validation/cases/large_batch_curve.yaml");
    report::MeasuredSeries series{fs::path(c.dataset->file).filename().string() + ", " + c.dataset->series,
                                  {}};
    for (const auto& p : calibration::read_measured_series(
             c.dataset->file, c.dataset->series,
             {c.dataset->x_column, c.dataset->y_column, c.dataset->sd_column}, {}))
      series.points.push_back({p.x, p.y, p.sd});
    measured.push_back(series);
  }
  return measured;
}

} // namespace

std::size_t write_html_report(const std::vector<fs::path>& directories, const fs::path& out,
                              const std::vector<std::string>& measured_cases) {
  const std::vector<report::MeasuredSeries> measured = measured_series_of(measured_cases);
  report::ReportDocument document("sonicsim report");
  for (const auto& given : directories) {
    fs::path dir = given;
    // A replicated run keeps each replication's files in replication_<r>/: the first is drawn.
    if (report::result_kinds(dir).empty() && fs::exists(dir / "replication_0" / "summary.json"))
      dir /= "replication_0";
    const auto kinds = report::result_kinds(dir);
    if (kinds.empty())
      throw InputError(
          given.string() +
          ": holds no sonicsim result; expected the output directory of run (summary.json), sweep "
          "(sweep.csv), plan (plan.json or plan_autoscaler.json), compare (compare.json), validate "
          "(report.json), calibrate (calibration.json) or replay (replay.json)");
    for (const auto kind : kinds) {
      try {
        switch (kind) {
        case report::ResultKind::run:
          report::check_run_result(dir);
          report::add_run_section(document, dir);
          break;
        case report::ResultKind::sweep:
          report::check_sweep_result(dir);
          report::add_sweep_section(document, dir, measured);
          break;
        case report::ResultKind::plan:
          report::add_plan_section(document, dir);
          break;
        case report::ResultKind::autoscaler_plan:
          report::add_autoscaler_plan_section(document, dir);
          break;
        case report::ResultKind::compare:
          report::add_compare_section(document, dir);
          break;
        case report::ResultKind::validate:
          report::add_validate_section(document, dir);
          break;
        case report::ResultKind::calibrate:
          report::add_calibrate_section(document, dir);
          break;
        case report::ResultKind::replay:
          report::add_replay_section(document, dir);
          break;
        }
      } catch (const InputError&) {
        throw; // names its file already
      } catch (const nlohmann::json::exception& error) {
        // A field the section reads is missing or of another kind: named in words, with the file.
        throw InputError((dir / report::result_kind_file(kind)).string() + ": damaged " +
                         report::result_kind_name(kind) + " result (" + json_problem(error) +
                         "); expected the files as sonicsim writes them: run the command again");
      } catch (const std::exception& error) {
        throw InputError(dir.string() + ": its " + report::result_kind_name(kind) +
                         " result cannot be drawn (" + error.what() +
                         "); expected the files as sonicsim writes them: run the command again");
      }
    }
  }
  if (out.has_parent_path()) ensure_writable_directory(out.parent_path());
  write_output_file("--out", out, document.html(report_javascript()), {});
  return document.chart_count();
}

void add_html_option(CLI::App& command, bool& html) {
  command.add_flag("--html", html,
                   "Also write report.html in the output directory (as sonicsim report DIR does)");
}

void write_html_report_if_asked(bool html, const fs::path& dir, bool quiet, bool json) {
  if (!html) return;
  const std::size_t charts = write_html_report({dir}, dir / "report.html");
  if (!quiet)
    std::fprintf(json ? stderr : stdout, "wrote %s (%zu charts)\n", (dir / "report.html").string().c_str(),
                 charts);
}

namespace {

struct ReportArguments {
  std::vector<std::string> directories;
  std::string out;
  std::vector<std::string> measured; // validation cases whose datasets are drawn over sweeps
  bool quiet = false;
};

int report_command(const ReportArguments& arguments) {
  for (const auto& directory : arguments.directories)
    require_input_directory(directory, "a result directory (a command's --out)");
  std::vector<fs::path> directories(arguments.directories.begin(), arguments.directories.end());
  const fs::path out = arguments.out.empty() ? directories.front() / "report.html" : fs::path(arguments.out);
  // Checked before any result is read: never a folder, a result file or a device node replaced.
  std::vector<fs::path> inputs;
  for (const auto& dir : directories) {
    std::error_code error;
    for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end; it.increment(error))
      if (it->path().filename() != "report.html") inputs.push_back(it->path());
  }
  if (out.has_parent_path()) ensure_writable_directory(out.parent_path()); // report --out makes its folder
  check_output_file("--out", out, inputs);
  const std::size_t charts = write_html_report(directories, out, arguments.measured);
  if (!arguments.quiet)
    std::printf("wrote %s (%zu charts; opens offline in a browser)\n", out.string().c_str(), charts);
  return exit_ok;
}

} // namespace

void register_report_command(CLI::App& app, int& result) {
  auto arguments = std::make_shared<ReportArguments>();
  auto* command = app.add_subcommand(
      "report",
      "One self-contained HTML file (interactive charts, opens offline) from result directories of run, "
      "sweep, plan, compare, validate or calibrate");
  // Checked where the command runs (sim/app/common/input_files.hpp says why not here).
  command->add_option("directories", arguments->directories, "Result directories (the commands' --out)")
      ->required();
  command->add_option("--out", arguments->out,
                      "The HTML file (default: DIR/report.html of the first directory)");
  command
      ->add_option(
          "--measured", arguments->measured,
          "A validation case with a measured curve (e.g. validation/cases/large_batch_curve.yaml): its "
          "points, with their sd, drawn over the sweeps' module time (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->check(CLI::ExistingFile);
  add_output_options(*command, arguments->quiet, nullptr);
  command->callback([arguments, &result]() { result = guarded(*arguments, report_command); });
}

} // namespace sonicsim

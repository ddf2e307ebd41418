#include "sim/report/result_checks.hpp"

#include "sim/metrics/json_fields.hpp"
#include "sim/scenario/input_error.hpp"
#include "sim/sweep/sweep_csv.hpp"

#include <stdexcept>
#include <string>

namespace sonicsim::report {
namespace {

namespace fs = std::filesystem;

// A CSV read and the named columns read as numbers: a missing column, a short row or a field that is not a
// number becomes an InputError naming the file.
CsvTable checked_csv(const fs::path& file, std::initializer_list<const char*> number_columns) {
  try {
    CsvTable table = read_csv_file(file.string());
    if (table.header.empty()) throw std::runtime_error(file.string() + ": empty; expected a header and rows");
    for (const char* column : number_columns)
      table.optional_numbers(column); // an empty field is a figure the run does not define
    return table;
  } catch (const std::exception& error) {
    throw InputError(error.what());
  }
}

void check_time_stats(const JsonFields& stats) {
  for (const char* key : {"mean_s", "p50_s", "p95_s"})
    if (stats.has(key)) stats.at(key).number();
}

} // namespace

void check_run_result(const fs::path& dir) {
  const JsonFields summary = JsonFields::read_file(dir / "summary.json");
  summary.at("scenario").members();
  const JsonFields figures = summary.at("figures");
  for (const auto& [name, value] : figures.json().items())
    figures.at(name).number();
  const JsonFields results = summary.at("results");
  const JsonFields modules = results.at("modules");
  for (const auto& [name, value] : modules.json().items())
    check_time_stats(modules.at(name));
  check_time_stats(results.at("event"));
  const JsonFields window = results.at("window");
  window.at("start_s").number();
  window.at("end_s").number();
  window.at("steady_state").boolean();
  results.at("bottleneck").at("resource").text();
  results.at("bottleneck").at("utilisation").number();
  const JsonFields warnings = results.at("warnings");
  for (std::size_t i = 0; i < warnings.size(); ++i)
    warnings.at(i).text();
  if (fs::exists(dir / "events.csv")) checked_csv(dir / "events.csv", {"end_s", "warmup"});
  if (fs::exists(dir / "timeseries.csv")) checked_csv(dir / "timeseries.csv", {"time_s"});
}

void check_sweep_result(const fs::path& dir) {
  const CsvTable table =
      checked_csv(dir / "sweep.csv", {"module_mean_s", "event_mean_s", "events_per_s", "gpu_utilisation"});
  if (table.header.size() < 2 || table.header[0] != "point")
    throw InputError(
        (dir / "sweep.csv").string() +
        ": the header does not start with point and the swept key; expected the file as sonicsim "
        "writes it");
  if (table.rows.empty())
    throw InputError((dir / "sweep.csv").string() + ": no points; expected one row each");
  const fs::path points = dir / "points";
  std::error_code error;
  if (!fs::is_directory(points, error)) return;
  for (fs::directory_iterator it(points, error), end; !error && it != end; it.increment(error))
    if (it->path().extension() == ".json") JsonFields::read_file(it->path()).members();
}

} // namespace sonicsim::report

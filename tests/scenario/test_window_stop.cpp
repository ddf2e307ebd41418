// A fixed run with output.stop_at_window_end (sim/components/window_stop.hpp) stops where its steady-state
// window ends (at the end of the rate bin that holds it): its times are those of the events that end inside
// the window, which events.csv shows by a second route, and its rates are the same run's to the end.
#include "simulate.hpp"

#include "sim/text/csv.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using sonicsim::testing::read_json;
using sonicsim::testing::run_sonicsim;

namespace {

// The 2020 large-batch ProtoDUNE scenario, shortened: 100 jobs x 12 events (1 of warm-up), started over
// 120 s, so that the window (all warmed up, none ended) holds about half of the events.
const std::string run_arguments = "run " + sonicsim::testing::config_path("protodune_2020_large_batch.yaml") +
                                  " -q --seed 3 --set workload.events_per_job=12 --set output.precision=off ";

struct EventRow {
  double end_s = 0.0, event_s = 0.0;
  bool warmup = false, failed = false;
};

std::vector<EventRow> read_events(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = sonicsim::split_csv_line(line);
  const auto column = [&](const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) FAIL("events.csv has no column " << name);
    return static_cast<std::size_t>(it - header.begin());
  };
  const std::size_t end = column("end_s"), event = column("event_s"), warmup = column("warmup"),
                    failed = column("failed");
  std::vector<EventRow> rows;
  while (std::getline(in, line)) {
    const std::vector<std::string> cells = sonicsim::split_csv_line(line);
    rows.push_back(
        {std::stod(cells[end]), std::stod(cells[event]), cells[warmup] == "1", cells[failed] == "1"});
  }
  return rows;
}

} // namespace

TEST_CASE("window stop: the run ends at its window's end, its times are the window's events', its rates the "
          "same as a run to the end") {
  const fs::path base = fs::temp_directory_path() / "sonicsim_window_stop";
  fs::remove_all(base);
  const auto stopped = run_sonicsim(run_arguments + "--set output.stop_at_window_end=true --out " +
                                    (base / "stopped").string());
  const auto whole = run_sonicsim(run_arguments + "--out " + (base / "whole").string());
  REQUIRE(stopped.exit_code == 0);
  REQUIRE(whole.exit_code == 0);
  const auto s = read_json(base / "stopped" / "summary.json")["results"];
  const auto w = read_json(base / "whole" / "summary.json")["results"];
  const double start_s = s["window"]["start_s"], end_s = s["window"]["end_s"];
  CHECK(s["window"]["stopped_at_end"] == true);
  CHECK(w["window"]["stopped_at_end"] == false);
  // The same simulation up to the stop: the same window.
  CHECK(w["window"]["start_s"] == s["window"]["start_s"]);
  CHECK(w["window"]["end_s"] == s["window"]["end_s"]);
  // Stopped at the end of the rate bin holding the window's end: the config's 60 s rows, bins of 6 s.
  const double stop_s = s["window"]["simulated_end_s"];
  CHECK(stop_s >= end_s);
  CHECK(stop_s <= end_s + 6.0);
  CHECK(std::fmod(stop_s, 6.0) == doctest::Approx(0.0).epsilon(1e-9));
  CHECK(w["window"]["simulated_end_s"].get<double>() > stop_s + 60.0);

  // Second route: the event time from events.csv, over the measured events that end inside the window.
  const auto rows = read_events(base / "stopped" / "events.csv");
  double sum_s = 0.0;
  int in_window = 0, measured = 0;
  for (const auto& row : rows) {
    CHECK(row.end_s <= stop_s); // nothing after the stop
    if (row.warmup || row.failed) continue;
    ++measured;
    if (row.end_s >= start_s && row.end_s <= end_s) sum_s += row.event_s, ++in_window;
  }
  REQUIRE(in_window > 200);
  CHECK(measured > in_window); // the events before the window and between its end and the stop are left out
  CHECK(s["event"]["count"] == in_window);
  // events.csv writes 9 significant digits; the summary's mean is the exact one.
  CHECK(s["event"]["mean_s"].get<double>() == doctest::Approx(sum_s / in_window).epsilon(1e-7));

  // Rates: every bin the window reads was complete at the stop, so the sums are those of the run to the end,
  // to the bit (the GPUs' busy time is booked as each batch starts).
  CHECK(s["events"]["per_s"] == w["events"]["per_s"]);
  CHECK(s["server"]["gpu_utilisation"] == w["server"]["gpu_utilisation"]);
  // The precision rule's bins are as fine as a few thousand per run: a shorter run's are finer, and the
  // window's ends cut them elsewhere.
  CHECK(s["precision"]["figures"]["events_per_s"]["mean"].get<double>() ==
        doctest::Approx(w["precision"]["figures"]["events_per_s"]["mean"].get<double>()).epsilon(0.001));
  // The run to the end keeps every job's events.
  CHECK(w["events"]["completed"].get<int>() + w["events"]["warmup"].get<int>() == 100 * 12);
  CHECK(s["events"]["completed"].get<int>() + s["events"]["warmup"].get<int>() < 100 * 12);
  fs::remove_all(base);
}

// Same scenario and seed: byte-identical output files. A different seed: different events.
#include "simulate.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace {} // namespace

TEST_CASE("same scenario and seed give byte-identical files") {
  const auto base = std::filesystem::temp_directory_path() / "sonicsim_determinism";
  std::filesystem::remove_all(base);
  const std::string common =
      "run --quiet --set workload.jobs=50 --set workload.events_per_job=3 --set output.precision=off ";
  REQUIRE(sonicsim::testing::run_sonicsim(common + "--out " + (base / "a").string()).exit_code == 0);
  REQUIRE(sonicsim::testing::run_sonicsim(common + "--out " + (base / "b").string()).exit_code == 0);
  REQUIRE(sonicsim::testing::run_sonicsim(common + "--seed 2 --out " + (base / "c").string()).exit_code == 0);
  for (const char* file : {"summary.json", "events.csv", "timeseries.csv"}) {
    CAPTURE(file);
    const std::string a = sonicsim::testing::read_text(base / "a" / file);
    CHECK(a.size() > 100);
    CHECK(a == sonicsim::testing::read_text(base / "b" / file));
  }
  CHECK(sonicsim::testing::read_text(base / "a" / "events.csv") !=
        sonicsim::testing::read_text(base / "c" / "events.csv"));
  std::filesystem::remove_all(base);
}

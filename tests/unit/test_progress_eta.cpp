// The estimate of time left that one long run prints (Progress::update_fraction): none below 1 % done, where
// an extrapolation from the first few ended events said 494 days for a run of 40 minutes (a saturated run of
// 10^6 jobs ends almost nothing at first), and elapsed / fraction x (1 - fraction) from there on.
#include "sim/execution/progress.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

// What one Progress prints on stderr for one update_fraction call (stderr is a file here: plain lines).
std::string printed_for(std::optional<double> fraction) {
  std::fflush(stderr);
  std::string path = (std::filesystem::temp_directory_path() / "sonicsim_progress_eta_XXXXXX").string();
  const int file = ::mkstemp(path.data());
  REQUIRE(file >= 0);
  const int saved = ::dup(2);
  ::dup2(file, 2);
  {
    sonicsim::Progress progress("run", 1);
    progress.update_fraction(fraction, "");
    std::fflush(stderr);
  }
  ::dup2(saved, 2);
  ::close(saved);
  ::close(file);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(path.c_str());
  return text.str();
}

} // namespace

TEST_CASE("progress: no ETA below 1 % done, then one from the fraction") {
  // 0.5 % done: the fraction with two decimals and no estimate.
  const std::string early = printed_for(0.005);
  CHECK(early.find("0.50 % done") != std::string::npos);
  CHECK(early.find("ETA from 1 % done") != std::string::npos);
  // 1 % and beyond: an estimate in seconds (its value is elapsed x 99, which a test cannot pin; "ETA " and a
  // number).
  const std::string at_one = printed_for(0.01);
  CHECK(at_one.find("1 % done") != std::string::npos);
  CHECK(at_one.find("ETA from") == std::string::npos);
  CHECK(at_one.find(", ETA ") != std::string::npos);
  // Unknown fraction: elapsed time only.
  const std::string unknown = printed_for(std::nullopt);
  CHECK(unknown.find("ETA") == std::string::npos);
  CHECK(unknown.find("s elapsed") != std::string::npos);
}

// How far a command is, on stderr, in one style for every command: redrawn in place on a terminal, and as
// plain lines at most every `plain_interval_s` otherwise (a log file gets a readable history, not carriage
// returns), with the elapsed time and, once something is done, an estimate of the time left.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

namespace sonicsim {

class Progress {
public:
  // `label` starts every line ("sweep", "validate"); `unit` names what is counted ("simulations").
  Progress(std::string label, std::size_t total, std::string unit = "simulations", bool quiet = false);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // `done` of the total finished, `running` under way; `detail` (optional) ends the line.
  void update(std::size_t done, std::size_t running = 0, const std::string& detail = "");
  // For one long task: the fraction done (none: unknown, no ETA), and `detail` (e.g. the simulated time).
  void update_fraction(std::optional<double> fraction, const std::string& detail);
  // The last line: always drawn (unless quiet), and on a terminal ended with a newline.
  void finish(const std::string& detail = "");
  double elapsed_s() const;

  static constexpr double plain_interval_s = 10.0;

private:
  std::string line(std::size_t done, std::size_t running, const std::string& detail) const;
  void draw(const std::string& text);

  using clock = std::chrono::steady_clock;
  std::string label_, unit_;
  std::size_t total_;
  bool quiet_, terminal_;
  bool drawn_ = false, finished_ = false, one_task_ = false;
  std::size_t last_done_ = 0;
  clock::time_point start_, last_plain_;
};

} // namespace sonicsim

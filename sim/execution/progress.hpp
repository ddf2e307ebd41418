// How far a command is, on stderr, in one style for every command: redrawn in place on a terminal, and as
// plain lines at most every `plain_interval_s` otherwise (a log file gets a readable history, not carriage
// returns), with the elapsed time and, once something is done, an estimate of the time left.
//
// A command that decides its batches one by one (plan, calibrate) keeps one Progress for the whole command:
// each batch adds its simulations (`add`), and the command says what it expects after the batches it knows
// (`expect_later`), so the estimate is of the whole command, corrected as simulations finish, instead of a
// batch's (which was 10x short on a plan: 53 s shown, 534 s taken).
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

namespace sonicsim {

inline constexpr double min_fraction_for_eta = 0.01;

class Progress {
public:
  // `label` starts every line ("sweep", "validate"); `unit` names what is counted ("simulations").
  Progress(std::string label, std::size_t total, std::string unit = "simulations", bool quiet = false);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // `done` of the total finished, `running` under way; `detail` (optional) ends the line.
  void update(std::size_t done, std::size_t running = 0, const std::string& detail = "");
  // For one long task: the fraction done (none: unknown, no ETA; below min_fraction_for_eta, no ETA yet), and
  // `detail` (e.g. the simulated time).
  void update_fraction(std::optional<double> fraction, const std::string& detail);
  // A new batch of `more` simulations joins the total.
  void add(std::size_t more);
  // What the command expects after the simulations added so far: about `later` more simulations (none:
  // unknown, so the estimate is of the known ones and says so), and `outlook`, where the command stands in
  // its own words ("13-16 T4 still open"; may be empty).
  void expect_later(std::optional<std::size_t> later, std::string outlook);
  std::size_t total() const { return total_; }
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
  bool batched_ = false; // add() was called: the total is the command's known simulations so far
  std::optional<std::size_t> later_;
  std::string outlook_;
  clock::time_point start_, last_plain_;
};

} // namespace sonicsim

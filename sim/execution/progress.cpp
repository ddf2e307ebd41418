#include "sim/execution/progress.hpp"

#include <cstdio>
#include <unistd.h>

namespace sonicsim {

Progress::Progress(std::string label, std::size_t total, std::string unit, bool quiet)
    : label_(std::move(label)), unit_(std::move(unit)), total_(total), quiet_(quiet),
      terminal_(::isatty(2) != 0), start_(clock::now()), last_plain_(start_) {}

Progress::~Progress() {
  // A command that fails half-way leaves its in-place line ended, so the error starts on a line of its own.
  if (drawn_ && terminal_ && !finished_) std::fputs("\n", stderr);
}

double Progress::elapsed_s() const {
  return std::chrono::duration<double>(clock::now() - start_).count();
}

std::string Progress::line(std::size_t done, std::size_t running, const std::string& detail) const {
  const double elapsed = elapsed_s();
  char text[320];
  int n =
      std::snprintf(text, sizeof text, "%s: %zu/%zu %s done", label_.c_str(), done, total_, unit_.c_str());
  if (running > 0) n += std::snprintf(text + n, sizeof text - n, ", %zu running", running);
  n += std::snprintf(text + n, sizeof text - n, ", %.0f s elapsed", elapsed);
  // The rate so far (finished simulations per elapsed second, with the cores as they were used) times what
  // is left: the known simulations, and the ones the command expects after them.
  const std::size_t left = total_ - std::min(done, total_) + (batched_ ? later_.value_or(0) : 0);
  if (done > 0 && left > 0) {
    const double eta_s = elapsed / static_cast<double>(done) * static_cast<double>(left);
    if (!batched_)
      n += std::snprintf(text + n, sizeof text - n, ", ETA %.0f s", eta_s);
    else if (later_)
      n += std::snprintf(text + n, sizeof text - n, ", ETA about %.0f s (%zu more %s expected after these)",
                         eta_s, *later_, unit_.c_str());
    else
      n += std::snprintf(text + n, sizeof text - n,
                         ", ETA of these %.0f s (what follows depends on their results)", eta_s);
  }
  std::string out = text;
  if (!outlook_.empty()) out += "; " + outlook_;
  if (!detail.empty()) out += " (" + detail + ")";
  return out;
}

void Progress::add(std::size_t more) {
  batched_ = true;
  total_ += more;
}

void Progress::expect_later(std::optional<std::size_t> later, std::string outlook) {
  later_ = later;
  outlook_ = std::move(outlook);
}

void Progress::draw(const std::string& text) {
  if (terminal_) {
    std::fprintf(stderr, "\r%s\x1b[K", text.c_str());
    std::fflush(stderr);
    drawn_ = true;
    return;
  }
  const auto now = clock::now();
  if (drawn_ && std::chrono::duration<double>(now - last_plain_).count() < plain_interval_s) return;
  std::fprintf(stderr, "%s\n", text.c_str());
  last_plain_ = now;
  drawn_ = true;
}

void Progress::update(std::size_t done, std::size_t running, const std::string& detail) {
  if (quiet_) return;
  last_done_ = done;
  draw(line(done, running, detail));
}

void Progress::update_fraction(std::optional<double> fraction, const std::string& detail) {
  if (quiet_) return;
  one_task_ = true;
  const double elapsed = elapsed_s();
  char text[160];
  // Below 1 % done no ETA: a saturated run ends few events at first (10^6 jobs queue at their GPUs for
  // simulated days before their first event ends), and an extrapolation from there said 494 days for a run
  // of 40 minutes.
  if (fraction && *fraction >= min_fraction_for_eta && *fraction < 1.0)
    std::snprintf(text, sizeof text, "%s: %.0f %% done, %.0f s elapsed, ETA %.0f s", label_.c_str(),
                  100.0 * *fraction, elapsed, elapsed / *fraction * (1.0 - *fraction));
  else if (fraction && *fraction > 0.0 && *fraction < 1.0)
    std::snprintf(text, sizeof text, "%s: %.2f %% done, %.0f s elapsed, ETA from 1 %% done", label_.c_str(),
                  100.0 * *fraction, elapsed);
  else
    std::snprintf(text, sizeof text, "%s: %.0f s elapsed", label_.c_str(), elapsed);
  draw(std::string(text) + (detail.empty() ? "" : " (" + detail + ")"));
}

void Progress::finish(const std::string& detail) {
  if (quiet_ || finished_) return;
  finished_ = true;
  later_.reset(); // nothing is expected after the last line
  outlook_.clear();
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.0f", elapsed_s());
  const std::string text =
      one_task_ ? label_ + ": done in " + seconds + " s" + (detail.empty() ? "" : " (" + detail + ")")
                : line(last_done_, 0, detail);
  std::fprintf(stderr, terminal_ ? "\r%s\x1b[K\n" : "%s\n", text.c_str());
}

} // namespace sonicsim

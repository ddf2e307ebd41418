#include "sim/engine/simgrid_settings_check.hpp"

#include "sim/engine/engine_arguments.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/scenario/input_error.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sonicsim {
namespace {

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

// A value that reads as a number in full: that number.
bool as_number(const std::string& text, double& value) {
  char* end = nullptr;
  errno = 0;
  value = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size();
}

// What sonicsim refuses without asking SimGrid; empty when nothing.
std::string policy_problem(const std::string& key, const std::string& value) {
  if (starts_with(key, "tracing"))
    return "SimGrid's tracing is not offered: it writes its trace outside --out (sonicsim writes every file "
           "under --out; summary.json, events.csv and timeseries.csv hold what a trace would show)";
  if (key == "network/model" && value != "CM02")
    return "sonicsim's flows are CM02's (its flow classes and fast path compute CM02's max-min shares, "
           "docs/model.md); expected CM02";
  if (key == "host/model" && value != "default")
    return "sonicsim's hosts use SimGrid's default host model; expected default";
  if (key == "contexts/nthreads") {
    double threads = 0;
    const double cores = std::max(1u, std::thread::hardware_concurrency());
    if (!as_number(value, threads) || threads != std::floor(threads) || threads < 1 || threads > cores)
      return "expected a whole number of threads from 1 to the machine's " +
             std::to_string(static_cast<int>(cores)) + " cores";
  }
  double number = 0;
  if (as_number(value, number) && !std::isfinite(number)) return "expected a finite number";
  static const char* const positive_keys[] = {
      "maxmin/precision",    "surf/precision",           "precision/timing",       "precision/work-amount",
      "network/TCP-gamma",   "network/bandwidth-factor", "network/latency-factor", "network/weight-S",
      "contexts/stack-size", "contexts/guard-size"};
  for (const char* positive : positive_keys)
    if (key == positive && (!as_number(value, number) || !(number > 0) || !std::isfinite(number)))
      return "expected a finite number above 0";
  return "";
}

// Runs two jobs of the default scenario with `settings` in a child process; empty when it completes an event,
// else what went wrong (SimGrid's first critical line, the signal, or the time-out).
std::string trial_run_problem(const std::vector<std::string>& settings) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return ""; // cannot try: the run itself will say
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    return "";
  }
  if (child == 0) {
    ::dup2(pipe_fds[1], STDERR_FILENO);
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    int status = 0;
    try {
      EngineCommandLine::set_user_settings(settings);
      const Scenario scenario = load_default_scenario({"workload.jobs=2", "workload.events_per_job=1",
                                                       "output.precision=off", "workload.warmup_events=0"});
      const RunResult result = run_simulation(scenario, RunOptions{});
      if (result.summary.events_completed == 0) {
        std::fputs("the trial run completed no event\n", stderr);
        status = 3;
      }
    } catch (const std::exception& error) {
      std::fprintf(stderr, "%s\n", error.what());
      status = 2;
    }
    std::fflush(stderr);
    ::_exit(status);
  }
  ::close(pipe_fds[1]);
  std::string text;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  bool timed_out = false;
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd wait_for{pipe_fds[0], POLLIN, 0};
    const int ready = ::poll(&wait_for, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    char buffer[4096];
    const ssize_t got = ::read(pipe_fds[0], buffer, sizeof buffer);
    if (got <= 0) break; // the child closed its end: it ended
    if (text.size() < 65536) text.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(pipe_fds[0]);
  if (timed_out) ::kill(child, SIGKILL);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) return "a two-job trial run with it did not end within 30 s";
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
  // SimGrid's own words: its first critical line, else the child's last line.
  std::string reason;
  if (const auto at = text.find("CRITICAL]"); at != std::string::npos) {
    reason = text.substr(at + 9);
  } else if (!text.empty()) {
    const auto end = text.find_last_not_of('\n');
    const auto start = text.find_last_of('\n', end);
    reason = text.substr(start == std::string::npos ? 0 : start + 1);
  }
  // The first line that says something (SimGrid may start its message on the line after the mark).
  reason.erase(0, std::min(reason.size(), reason.find_first_not_of(" \n")));
  reason = reason.substr(0, reason.find('\n'));
  const std::string how = WIFSIGNALED(status) ? "SimGrid aborted a two-job trial run with it (signal " +
                                                    std::to_string(WTERMSIG(status)) + ")"
                                              : "a two-job trial run with it failed";
  return reason.empty() ? how : how + ": " + reason;
}

} // namespace

void check_simgrid_settings(const std::vector<std::string>& settings) {
  if (settings.empty()) return;
  for (const auto& setting : settings) {
    const auto colon = setting.find(':');
    const std::string key = setting.substr(0, colon), value = setting.substr(colon + 1);
    if (const std::string problem = policy_problem(key, value); !problem.empty())
      throw InputError("--cfg " + setting + ": " + problem);
  }
  if (trial_run_problem(settings).empty()) return;
  // Which one: each alone, then (none alone failing) all of them together.
  for (const auto& setting : settings)
    if (const std::string problem = trial_run_problem({setting}); !problem.empty())
      throw InputError("--cfg " + setting + ": " + problem);
  std::string all;
  for (const auto& setting : settings)
    all += (all.empty() ? "" : " --cfg ") + setting;
  throw InputError("--cfg " + all + ": " + trial_run_problem(settings));
}

} // namespace sonicsim

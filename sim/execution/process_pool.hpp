// Runs independent tasks in child processes, a few at a time. SimGrid allows one engine per process, so every
// simulation of a sweep, a benchmark or a validation runs in its own child; the child returns its result to
// the parent as text through a pipe.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace sonicsim {

struct ChildResult {
  bool ok = false;         // the task returned normally
  std::string output;      // what the task returned (ok) or the error message (not ok)
  long peak_rss_kb = 0;    // the child's peak resident memory
  double wall_clock_s = 0; // the child's lifetime
  double cpu_s = 0;        // the child's user and system CPU time
};

// Calls task(i) for i in [0, count) in child processes, at most `parallel` at once, and on_done(i, result) in
// the parent as each finishes (in completion order). A task that throws, crashes or is killed is reported
// with ok = false; the others go on. Ctrl-C or SIGTERM to the parent stops every child and throws
// Interrupted (sim/execution/interruption.hpp); only the tasks finished before were reported.
void run_in_child_processes(std::size_t count, int parallel,
                            const std::function<std::string(std::size_t)>& task,
                            const std::function<void(std::size_t, const ChildResult&)>& on_done);

} // namespace sonicsim

// Ctrl-C (SIGINT) and SIGTERM while simulations run in child processes: the first one stops the whole
// command. The children are killed, a simulation that did not finish is never reported as done, and the
// command ends with Interrupted, which the command line turns into "interrupted" and exit code 130 (128 +
// SIGINT, the shell's convention). What finished before is kept by the command that asked for it (a sweep's
// points, a validation's finished cases), so that it can resume.
#pragma once

#include <stdexcept>
#include <string>

namespace sonicsim {

struct Interrupted : std::runtime_error {
  explicit Interrupted(const std::string& what) : std::runtime_error(what) {}
};

// While one lives, SIGINT and SIGTERM set a flag instead of ending the process (the previous handlers come
// back when it goes). Guards nest: a command that runs several batches of children holds one for its whole
// length, so that a signal between two batches (when no batch's guard lives) is neither the default action's
// silent death nor forgotten by the next batch's guard; the inner guards share the outer one's flag. Only the
// parent process that waits for children holds one; a child blocks both, so that its parent alone decides
// what stops (and kills it).
class InterruptionGuard {
public:
  InterruptionGuard();
  ~InterruptionGuard();
  InterruptionGuard(const InterruptionGuard&) = delete;
  InterruptionGuard& operator=(const InterruptionGuard&) = delete;
  // The signal received since the guard was made, 0 if none.
  static int received();

private:
  struct Saved;
  Saved* saved_;
};

// Throws Interrupted(what) when a guard has noted a signal: a command checks before it writes its results, so
// that a Ctrl-C after its last batch still ends it with nothing written.
void throw_if_interrupted(const std::string& what);

// Blocks SIGINT and SIGTERM (in a child process: a Ctrl-C at the terminal reaches the whole process group,
// and the engine's own handler would end the child with a warning of its own).
void block_interruption();

// A command's part that may be interrupted, and what it keeps then: an Interrupted from `body` is thrown on
// with `kept` added to its message.
struct Interruptible {
  std::string kept;
  template <typename Body> void run(Body body) const {
    try {
      body();
    } catch (const Interrupted& interrupted) {
      throw Interrupted(std::string(interrupted.what()) + "; " + kept);
    }
  }
};

// 130: what a command interrupted by Ctrl-C exits with.
constexpr int exit_interrupted = 130;

} // namespace sonicsim

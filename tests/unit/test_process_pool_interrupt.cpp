// Ctrl-C at a batch's very end (sim/execution/process_pool.hpp): a signal that arrives after the last child
// has finished, while the parent still hands out its result, stops the command like one that arrives while
// children run. Before, the loop ended without looking and the next batch's guard started afresh: a plan ran
// to its end after Ctrl-C.
#include "sim/execution/interruption.hpp"
#include "sim/execution/process_pool.hpp"

#include <doctest/doctest.h>

#include <csignal>
#include <string>
#include <unistd.h>

using namespace sonicsim;

TEST_CASE("child processes: Ctrl-C after the last child finished still stops the command") {
  int done = 0;
  const auto task = [](std::size_t index) { return "result " + std::to_string(index); };
  // The signal comes while the parent takes the last result: the guard notes it; nothing runs any more.
  const auto on_done = [&done](std::size_t, const ChildResult& result) {
    CHECK(result.ok);
    if (++done == 2) ::kill(::getpid(), SIGINT);
  };
  CHECK_THROWS_WITH_AS(run_in_child_processes(2, 2, task, on_done),
                       doctest::Contains("2 of 2 simulations had finished"), Interrupted);
  CHECK(done == 2); // both results were handed out before the command stopped: a resume keeps them
  // Without a signal the same batch returns normally.
  done = 0;
  run_in_child_processes(2, 2, task, [&done](std::size_t, const ChildResult&) { ++done; });
  CHECK(done == 2);
}

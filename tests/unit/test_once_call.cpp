// The calendar's and the flows' callables (sim/kernel/once_call.hpp): a small callable lives in the object,
// a large one on the heap; either moves with its state, runs once where it ends up, and is destroyed exactly
// once (a leak or a double destruction would show in the counts).
#include "sim/kernel/once_call.hpp"

#include <doctest/doctest.h>

#include <array>
#include <utility>
#include <vector>

using sonicsim::OnceCall;

namespace {

struct Counts {
  int runs = 0;
  int alive = 0;
};

// A callable of `N` bytes of payload that counts its live copies and its runs.
template <std::size_t N> struct Counted {
  Counts* counts;
  std::array<char, N> payload{};
  explicit Counted(Counts* c) : counts(c) { ++counts->alive; }
  Counted(Counted&& other) noexcept : counts(other.counts), payload(other.payload) { ++counts->alive; }
  Counted(const Counted& other) : counts(other.counts), payload(other.payload) { ++counts->alive; }
  ~Counted() { --counts->alive; }
  void operator()() { ++counts->runs; }
};

template <std::size_t N> void check_moves_and_runs_once() {
  Counts counts;
  {
    std::vector<OnceCall> calls;
    calls.emplace_back(Counted<N>(&counts));
    CHECK(counts.alive == 1);    // the temporary is gone, the stored one lives
    for (int i = 0; i < 40; ++i) // the vector grows: every call moves
      calls.emplace_back([] {});
    CHECK(counts.alive == 1);
    OnceCall moved = std::move(calls.front());
    CHECK(calls.front().empty());
    CHECK(!moved.empty());
    moved();
    CHECK(counts.runs == 1);
    OnceCall assigned;
    assigned = std::move(moved);
    CHECK(counts.alive == 1);
    assigned.reset();
    CHECK(counts.alive == 0);
    CHECK(assigned.empty());
  }
  CHECK(counts.alive == 0);
  CHECK(counts.runs == 1);
}

} // namespace

TEST_CASE("once call: a small callable (in place) and a large one (on the heap) move, run and die once") {
  check_moves_and_runs_once<8>();                          // 16 bytes with its pointer: in place
  check_moves_and_runs_once<OnceCall::inline_bytes - 8>(); // exactly the inline size
  check_moves_and_runs_once<OnceCall::inline_bytes>();     // 8 over: on the heap
}

TEST_CASE("once call: assigning over a held callable destroys the old one") {
  Counts first, second;
  OnceCall call = Counted<8>(&first);
  call = OnceCall(Counted<200>(&second));
  CHECK(first.alive == 0);
  CHECK(second.alive == 1);
  call();
  CHECK(second.runs == 1);
  CHECK(first.runs == 0);
}

// The search behind `sonicsim plan`: the first index at which a monotone condition holds (false ... false
// true ... true: more GPUs never hurt, more jobs never help), where each index is judged by replicated
// simulations and a judgement can be undecided (the confidence interval straddles the target). Undecided
// indices get more replications while they have budget; an index still undecided at the end leaves the
// answer a range. Monotone by construction: the answer is read above the highest index known false, so a
// noisy "true" below a "false" can never be the answer, and no verdict can flip the answer back and forth.
// Pure code: the caller supplies the judgement (sim/planning/planner.cpp runs the simulations).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <vector>

namespace sonicsim::planning {

enum class Decision { no, yes, undecided };
// As reports write it: "meets", "fails", "undecided".
inline const char* decision_text(Decision decision) {
  switch (decision) {
  case Decision::yes:
    return "meets";
  case Decision::no:
    return "fails";
  case Decision::undecided:
    break;
  }
  return "undecided";
}

struct Judgement {
  Decision decision = Decision::undecided;
  bool can_refine = false; // undecided and more replications are allowed
};

struct ConfidentSearch {
  // The smallest index known true above every index known false: the answer when `first_possible` equals it,
  // the top of the range otherwise. None: no index up to `hi` was found true.
  std::optional<int> first_true;
  // The smallest index that is not known false (the highest false + 1, or lo): the bottom of the range.
  int first_possible = 0;
  std::map<int, Decision> decisions; // the last judgement of every index judged
  int batches = 0;
  bool budget_exhausted = false; // undecided indices were left in the range
  bool stopped = false;          // the caller's `stop` ended it before it was decided
  bool decided() const { return first_true && *first_true == first_possible; }
};

// Where a search stands before a batch, for a whole-command progress estimate: the indices still open and
// about how many batches it will take from here (the next included), if the answer is near where the
// judgements so far point (more when undecided indices need replications, which no one can foresee).
struct SearchOutlook {
  int open_low = 0, open_high = 0; // the answer lies in [open_low, open_high] as far as is known
  bool false_below = false;        // an index known false bounds the range below (else open_low is lo)
  bool true_above = false;         // an index known true bounds it above (else open_high is hi)
  int likely_batches = 1;          // the next batch included
  int next_size = 0;               // indices in the next batch
};

// Batches that bisect `gap` unjudged indices down to neighbours, `batch` indices at a time (each batch
// splits the gap into batch + 1 parts).
int bisection_batches(int gap, int batch);

// How a search opens and when it may end early.
struct SearchShape {
  // The first batch: start - first_radius .. start + first_radius. 1 brackets an analytic start in one
  // batch when the cores can run its neighbours at once; 0 judges the start alone (fewer simulations when
  // the start is usually the answer or next to it).
  int first_radius = 1;
  // Asked before each batch with the smallest index not known false: true ends the search there
  // (`stopped`), e.g. when no index from there up can beat an answer found elsewhere.
  std::function<bool(int first_possible)> stop;
};

// Judges indices in [lo, hi], `batch` at a time (one batch = simulations in parallel): first the start and
// its `shape.first_radius` neighbours on each side; then upward while nothing is true, downward while nothing
// is false, and between the highest false and the lowest true above it until they are neighbours or every
// index between is undecided without budget. `judge` is called with indices to judge (again, for an undecided
// one: with more replications) and returns one judgement per index. `on_outlook` (optional) is told where the
// search stands before each batch.
ConfidentSearch
find_first_true_confidently(int lo, int hi, int start, int batch,
                            const std::function<std::vector<Judgement>(const std::vector<int>&)>& judge,
                            const std::function<void(const SearchOutlook&)>& on_outlook = {},
                            const SearchShape& shape = {});

} // namespace sonicsim::planning

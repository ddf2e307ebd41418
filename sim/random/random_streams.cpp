#include "sim/random/random_streams.hpp"

#include "sim/random/random_engine.hpp"
#include <algorithm>
#include <cmath>
#include <numeric>

namespace sonicsim {

RandomEngine make_stream(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  std::seed_seq sequence{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                         static_cast<std::uint32_t>(stream), static_cast<std::uint32_t>(index),
                         static_cast<std::uint32_t>(index >> 32)};
  return RandomEngine(sequence);
}

std::vector<int> stratified_assignment(const std::vector<double>& fractions, int count, std::uint64_t seed,
                                       std::uint64_t stream) {
  const std::size_t classes = fractions.size();
  std::vector<int> per_class(classes, 0);
  std::vector<std::pair<double, std::size_t>> remainders;
  int assigned = 0;
  for (std::size_t c = 0; c < classes; ++c) {
    const double exact = fractions[c] * count;
    per_class[c] = static_cast<int>(std::floor(exact));
    assigned += per_class[c];
    remainders.emplace_back(exact - std::floor(exact), c);
  }
  // Largest remainders first; ties broken by class order, so the result is deterministic.
  std::stable_sort(remainders.begin(), remainders.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = 0; assigned < count; ++i, ++assigned)
    ++per_class[remainders[i % classes].second];
  std::vector<int> assignment;
  assignment.reserve(static_cast<std::size_t>(count));
  for (std::size_t c = 0; c < classes; ++c)
    assignment.insert(assignment.end(), per_class[c], static_cast<int>(c));
  auto rng = make_stream(seed, stream);
  // std::shuffle's result depends on the library; a Fisher-Yates with our own index draws does not.
  for (std::size_t i = assignment.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>(rng() % i);
    std::swap(assignment[i - 1], assignment[j]);
  }
  return assignment;
}

} // namespace sonicsim

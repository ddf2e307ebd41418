// The one rule for walking a whole YAML document (every input's key check goes through it): each map or list
// is looked at once, however many aliases refer to it, and the walk is bounded in depth and in size.
//
// yaml-cpp keeps an alias as a second reference to the same node, so `b: [*a, *a]`, `c: [*b, *b]`, ... makes
// a 600-byte file name 10^9 paths: a walk that follows every reference runs for half an hour on it. A node is
// recognised by where it was written (its mark, with its kind and size), since yaml-cpp offers no other
// identity that can be kept in a set; nodes made by --set (no mark) are walked each time, being small.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace sonicsim {

class YamlWalkGuard {
public:
  // Deeper than any sonicsim input nests (a scenario reaches about 8 levels).
  static constexpr std::size_t max_depth = 64;
  // More maps and lists than any sonicsim input holds; a larger document is refused before it is read.
  static constexpr std::size_t max_nodes = 200000;

  enum class Entry { first_time, seen_before, contains_itself, too_deep, too_many };

  // Called before walking below `node` (a map or a list): first_time means walk it, then call leave();
  // seen_before means an alias of a node already walked (skip it); the others are refusals (see problem()).
  Entry enter(const YAML::Node& node);
  void leave() { enclosing_.pop_back(); }

  // The refusal's text, to follow "key PATH: ".
  static std::string problem(Entry entry);

private:
  std::vector<YAML::Node> enclosing_; // the nodes above the current one
  std::set<std::tuple<std::size_t, int, int, int, std::size_t>> seen_;
  std::size_t walked_ = 0;
};

} // namespace sonicsim

#include "sim/scenario/yaml_walk_guard.hpp"

namespace sonicsim {

YamlWalkGuard::Entry YamlWalkGuard::enter(const YAML::Node& node) {
  for (const auto& above : enclosing_)
    if (above.is(node)) return Entry::contains_itself;
  const YAML::Mark mark = node.Mark();
  if (!mark.is_null() && !seen_
                              .emplace(static_cast<std::size_t>(mark.pos), mark.line, mark.column,
                                       static_cast<int>(node.Type()), node.size())
                              .second)
    return Entry::seen_before;
  if (enclosing_.size() >= max_depth) return Entry::too_deep;
  if (++walked_ > max_nodes) return Entry::too_many;
  enclosing_.push_back(node);
  return Entry::first_time;
}

std::string YamlWalkGuard::problem(Entry entry) {
  switch (entry) {
  case Entry::contains_itself:
    return "refers to a map or list that contains it (a YAML alias of itself); expected values";
  case Entry::too_deep:
    return "nested more than " + std::to_string(max_depth) +
           " maps or lists deep; expected a shallower document";
  case Entry::too_many:
    return "the document holds more than " + std::to_string(max_nodes) +
           " maps and lists; expected a smaller document";
  case Entry::first_time:
  case Entry::seen_before:
    break;
  }
  return "";
}

} // namespace sonicsim

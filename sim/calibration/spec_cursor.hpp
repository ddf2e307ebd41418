// Reading a calibration spec's maps and lists (sim/calibration/joint_spec.hpp, joint_unknowns.hpp): an
// unknown key is told with the keys expected, a string or a list of strings read as a list.
#pragma once

#include "sim/scenario/yaml_cursor.hpp"
#include "sim/scenario/yaml_values.hpp"

#include <set>
#include <string>
#include <vector>

namespace sonicsim::spec_cursor {

inline void only_keys(const Cursor& c, const std::set<std::string>& known) {
  require(c, c.node().IsMap(), "a map");
  for (const auto& entry : c.node()) {
    const auto key = entry.first.Scalar();
    if (!known.count(key)) {
      std::string list;
      for (const auto& k : known)
        list += (list.empty() ? "" : ", ") + k;
      c.key_cursor(entry.first).fail("unknown key '" + key + "'; expected one of " + list);
    }
  }
}

inline std::vector<std::string> strings(const Cursor& c) {
  std::vector<std::string> out;
  if (!c.present()) return out;
  if (c.node().IsScalar()) return {read_string(c)};
  require(c, c.node().IsSequence(), "a list of strings");
  for (std::size_t i = 0; i < c.node().size(); ++i)
    out.push_back(read_string(c[i]));
  return out;
}

} // namespace sonicsim::spec_cursor

// A position in the scenario's YAML tree: the node, its key path and where it was written. Every check in the
// loader goes through a Cursor so that every error names the file, line, column and key path the same way.
#pragma once

#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace sonicsim {

// Where the text of a scenario came from: the file, and the --set overrides applied on top of it.
struct SourceInfo {
  struct Override {
    std::string argument; // as the user wrote it: "PATH=VALUE"
    std::string path;     // resolved and rendered like a Cursor path: workload.pipeline[1].max_batch
    std::string origin;   // how errors name it; empty: "--set ARGUMENT" (a variant names itself instead)
    std::string shown() const { return origin.empty() ? "--set " + argument : origin; }
  };
  std::string source_name;
  std::vector<Override> overrides;
};

class Cursor {
public:
  Cursor(const SourceInfo& source, const YAML::Node& root);
  Cursor(const Cursor&) = default;
  // No assignment: assigning a YAML::Node writes the other node into the tree this one refers to, so
  // `c = c["key"]` would silently rewrite the document being read.
  Cursor& operator=(const Cursor&) = delete;

  const YAML::Node& node() const { return node_; }
  const std::string& path() const { return path_; }
  const YAML::Mark& mark() const { return mark_; }
  // The file (or "<embedded default>") the node was read from.
  const std::string& source_name() const { return source_->source_name; }
  // The key was written (possibly with an empty value, which the typed readers reject).
  bool present() const { return node_.IsDefined(); }

  Cursor operator[](const std::string& key) const;
  Cursor operator[](std::size_t index) const;
  // A cursor on a map's key itself (for errors about the key, e.g. an unknown key): the mark is the key's.
  Cursor key_cursor(const YAML::Node& key_node) const;

  // The node's scalar text; fails with "expected WHAT" unless the node is a non-empty scalar.
  std::string scalar(const std::string& what) const;
  // A short rendering of the node for "got ..." in messages: the scalar quoted, or flow-style YAML.
  std::string shown() const;

  // Every map key below this node is text in UTF-8 (a key becomes a name in JSON and CSV output, as a value
  // does), and no node contains itself (an alias of an enclosing map): fails at the first that is not.
  void check_keys() const;

  [[noreturn]] void fail(const std::string& message) const;
  // "got VALUE; expected EXPECTED"
  [[noreturn]] void fail_value(const std::string& expected) const;

private:
  Cursor(const SourceInfo& source, YAML::Node node, std::string path, YAML::Mark mark);
  const SourceInfo* source_;
  YAML::Node node_;
  std::string path_;
  YAML::Mark mark_; // the node's own mark, or its nearest written ancestor's when the key is missing
};

} // namespace sonicsim

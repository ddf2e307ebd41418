#include "sim/scenario/yaml_cursor.hpp"

#include "sim/text/utf8.hpp"

#include <cstdint>
#include <map>
#include <vector>

#include "sim/scenario/scenario_error.hpp"
#include "sim/scenario/yaml_walk_guard.hpp"

namespace sonicsim {
namespace {

bool starts_path(const std::string& path, const std::string& prefix) {
  if (path.compare(0, prefix.size(), prefix) != 0) return false;
  return path.size() == prefix.size() || path[prefix.size()] == '.' || path[prefix.size()] == '[';
}

YAML::Mark mark_or(const YAML::Node& node, const YAML::Mark& fallback) {
  if (!node.IsDefined()) return fallback;
  const YAML::Mark m = node.Mark();
  return m.is_null() ? fallback : m;
}

// yaml-cpp returns an invalid "zombie" node for a missing key, and most calls on it throw; a missing child is
// represented by a fresh Undefined node instead, which answers IsDefined() == false safely.
template <typename Key> YAML::Node child_or_undefined(const YAML::Node& parent, const Key& key) {
  const YAML::Node child = parent[key];
  if (child.IsDefined()) return child;
  return YAML::Node(YAML::NodeType::Undefined);
}

} // namespace

Cursor::Cursor(const SourceInfo& source, const YAML::Node& root)
    : Cursor(source, root, "", mark_or(root, YAML::Mark())) {}

Cursor::Cursor(const SourceInfo& source, YAML::Node node, std::string path, YAML::Mark mark)
    : source_(&source), node_(std::move(node)), path_(std::move(path)), mark_(mark) {}

Cursor Cursor::operator[](const std::string& key) const {
  // Indexing a const node never inserts; a scalar or sequence has no keys, which reads as "not written".
  const YAML::Node child =
      node_.IsMap() ? child_or_undefined(node_, key) : YAML::Node(YAML::NodeType::Undefined);
  YAML::Mark mark = mark_or(child, mark_);
  // yaml-cpp marks an empty value (`jobs:`) at the next token, often on the next line; its key is clearer.
  if (child.IsDefined() && child.IsNull())
    for (const auto& entry : node_)
      if (entry.first.IsScalar() && entry.first.Scalar() == key) mark = mark_or(entry.first, mark_);
  return Cursor(*source_, child, path_.empty() ? key : path_ + "." + key, mark);
}

Cursor Cursor::operator[](std::size_t index) const {
  const YAML::Node child = node_.IsSequence() && index < node_.size() ? child_or_undefined(node_, index)
                                                                      : YAML::Node(YAML::NodeType::Undefined);
  return Cursor(*source_, child, path_ + "[" + std::to_string(index) + "]", mark_or(child, mark_));
}

Cursor Cursor::key_cursor(const YAML::Node& key_node) const {
  const std::string key = key_node.IsScalar() ? key_node.Scalar() : "?";
  return Cursor(*source_, key_node, path_.empty() ? key : path_ + "." + key, mark_or(key_node, mark_));
}

namespace {

void check_keys_below(const Cursor& at, YamlWalkGuard& guard) {
  const YAML::Node& node = at.node();
  if (!node.IsMap() && !node.IsSequence()) return;
  const auto entry = guard.enter(node);
  if (entry == YamlWalkGuard::Entry::seen_before) return;
  if (entry != YamlWalkGuard::Entry::first_time) at.fail(YamlWalkGuard::problem(entry));
  if (node.IsMap()) {
    std::map<std::string, int> first_line;
    for (const auto& item : node) {
      const Cursor key = at.key_cursor(item.first);
      if (!item.first.IsScalar()) key.fail("a key that is a map or a list; expected a name");
      if (!is_valid_utf8(item.first.Scalar()))
        key.fail("a key that is not valid UTF-8; expected text in UTF-8");
      // yaml-cpp keeps both and answers with the first; Helm and other readers refuse the file or take the
      // last, so the run would say something the file does not.
      const auto [first, inserted] = first_line.emplace(item.first.Scalar(), item.first.Mark().line + 1);
      if (!inserted)
        key.fail("duplicate key '" + item.first.Scalar() + "' (first written at line " +
                 std::to_string(first->second) + "); write each key once");
      check_keys_below(at[item.first.Scalar()], guard);
    }
  } else {
    for (std::size_t i = 0; i < node.size(); ++i)
      check_keys_below(at[i], guard);
  }
  guard.leave();
}

} // namespace

void Cursor::check_keys() const {
  YamlWalkGuard guard;
  check_keys_below(*this, guard);
}

std::string Cursor::scalar(const std::string& what) const {
  if (!present()) fail("missing required key; expected " + what);
  if (node_.IsNull()) fail("has no value; expected " + what);
  if (!node_.IsScalar()) fail_value(what);
  // Everything read ends up in JSON and CSV files, which hold UTF-8 text.
  if (!is_valid_utf8(node_.Scalar())) fail("got text that is not valid UTF-8; expected " + what);
  return node_.Scalar();
}

std::string Cursor::shown() const {
  if (!present()) return "nothing";
  if (node_.IsNull()) return "an empty value";
  if (node_.IsScalar()) return "\"" + node_.Scalar() + "\"";
  YAML::Emitter out;
  out.SetMapFormat(YAML::Flow);
  out.SetSeqFormat(YAML::Flow);
  out << node_;
  std::string text = out.c_str();
  constexpr std::size_t max_chars = 60; // long lists would drown the message
  if (text.size() > max_chars) text = text.substr(0, max_chars) + "...";
  return (node_.IsMap() ? "the map " : "the list ") + text;
}

void Cursor::fail(const std::string& message) const {
  // A value that came from --set is reported at the --set argument, not at a line of the file.
  for (auto it = source_->overrides.rbegin(); it != source_->overrides.rend(); ++it)
    if (starts_path(path_, it->path)) throw ScenarioError(it->shown(), 0, 0, path_, message);
  // The file's value may be wrong only in combination with an override (e.g. max_batch after --set
  // models.m.triton.max_batch_size=32), so the overrides in force are named.
  std::string text = message;
  std::string applied;
  for (const auto& o : source_->overrides)
    applied += (applied.empty() ? "" : ", ") + o.shown();
  if (!applied.empty()) text += " (with " + applied + ")";
  const bool known = !mark_.is_null();
  throw ScenarioError(source_->source_name, known ? mark_.line + 1 : 0, known ? mark_.column + 1 : 0, path_,
                      text);
}

void Cursor::fail_value(const std::string& expected) const {
  fail("got " + shown() + "; expected " + expected);
}

} // namespace sonicsim

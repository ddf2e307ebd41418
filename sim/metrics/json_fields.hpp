// Reads a result file sonicsim wrote (calibration.json, summary.json, a sweep point, report.json) field by
// field. A damaged file (not JSON, a field missing, a number turned into text, a matrix of the wrong shape)
// is an InputError that names the file and the key path in the project's words, never the JSON library's
// text.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace sonicsim {

class JsonFields {
public:
  // Parses `path`: an InputError when it cannot be read, is not a regular file, or is not JSON (with the line
  // and column where the text stops being JSON). The document is kept in the returned object.
  static JsonFields read_file(const std::filesystem::path& path);
  // A view of `node` (which must outlive it) inside `file`, at `key_path` ("" for the document).
  JsonFields(const nlohmann::json& node, std::string file, std::string key_path = "");

  bool has(const std::string& key) const;
  JsonFields at(const std::string& key) const; // a member the file must have
  JsonFields at(std::size_t index) const;      // an element of an array
  std::size_t size() const;                    // of an array (an error for anything else)
  std::size_t members() const;                 // of an object (an error for anything else)
  double number() const;                       // a finite number
  double number_or(const std::string& key, double fallback) const; // a member that may be absent
  long long integer() const;
  bool boolean() const;
  std::string text() const;
  bool is_array() const { return node_->is_array(); }
  bool is_object() const { return node_->is_object(); }
  const nlohmann::json& json() const { return *node_; }
  const std::string& file() const { return file_; }
  const std::string& key_path() const { return key_path_; }
  // Throws InputError "FILE: key PATH: got WHAT; expected EXPECTED".
  [[noreturn]] void fail(const std::string& expected) const;

private:
  std::shared_ptr<const nlohmann::json> owned_; // the document, when this object read it
  const nlohmann::json* node_;
  std::string file_, key_path_;
};

// A value a record may not have, as JSON: the value, or null (docs/commands.md: "no value" is null in a
// record).
template <class T> nlohmann::ordered_json value_or_null(const std::optional<T>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json();
}

// The JSON text sonicsim writes to a file or stdout (indent as nlohmann's dump: -1 on one line). Text that is
// not UTF-8 (a Latin-1 file name, which the file system allows) is written with U+FFFD in place of the bytes
// that are not: the JSON library would throw its own text otherwise, after a whole simulation.
template <class Json> std::string json_text(const Json& json, int indent = -1) {
  return json.dump(indent, ' ', false, Json::error_handler_t::replace);
}

// What a JSON value is, in words: "a string", "the number 3", "an array of 2", ...
std::string describe_json(const nlohmann::json& value);

// The text of a result file: an InputError when it cannot be read, is not a regular file, is over 512 MB or
// is empty.
std::string read_result_text(const std::filesystem::path& path);
// Throws InputError "NAME:LINE:COLUMN: not valid JSON ..." for a parse error at byte `byte` (from 1) of
// `text`.
[[noreturn]] void throw_not_json(const std::string& name, const std::string& text, std::size_t byte);
// `text` (read from `name`) parsed as `Json` (nlohmann::json, or ordered_json to keep the order of keys).
// Throws InputError "NAME: key KEY: got a number beyond the range of a double ..." (1e999 in a file: the
// JSON library's own text would name neither); `text` is read again, noting each key, to say which (only a
// file that fails pays for that).
[[noreturn]] void throw_number_overflow(const std::string& name, const std::string& text);
template <class Json> Json parse_result_json(const std::string& text, const std::string& name) {
  try {
    return Json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw_not_json(name, text, e.byte);
  } catch (const nlohmann::json::out_of_range&) {
    throw_number_overflow(name, text);
  }
}

} // namespace sonicsim

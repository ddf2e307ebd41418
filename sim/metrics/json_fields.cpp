#include "sim/metrics/json_fields.hpp"

#include "sim/scenario/input_error.hpp"

#include <cmath>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>

namespace sonicsim {

namespace {

// Result files are megabytes at most; a larger "result" is something else (a device, a dump).
constexpr std::uintmax_t largest_result_bytes = 512ull << 20;

// Line and column (from 1) of byte `offset` of `text`.
std::pair<std::size_t, std::size_t> line_column(const std::string& text, std::size_t offset) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

} // namespace

std::string describe_json(const nlohmann::json& value) {
  switch (value.type()) {
  case nlohmann::json::value_t::null:
    return "null";
  case nlohmann::json::value_t::boolean:
    return value.get<bool>() ? "true" : "false";
  case nlohmann::json::value_t::string: {
    std::string text = value.get<std::string>();
    if (text.size() > 40) text = text.substr(0, 40) + "...";
    // Quoted and escaped as JSON, with bytes that are not UTF-8 replaced: safe to print whatever the file
    // held.
    return "the text " + nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  case nlohmann::json::value_t::array:
    return "an array of " + std::to_string(value.size());
  case nlohmann::json::value_t::object:
    return "an object of " + std::to_string(value.size()) + " key(s)";
  case nlohmann::json::value_t::number_integer:
  case nlohmann::json::value_t::number_unsigned:
  case nlohmann::json::value_t::number_float:
    return "the number " + value.dump();
  default:
    return "a binary value";
  }
}

std::string read_result_text(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status)) throw InputError(name + ": no such file");
  if (!std::filesystem::is_regular_file(status)) throw InputError(name + ": not a regular file");
  if (std::filesystem::file_size(path, error) > largest_result_bytes)
    throw InputError(name + ": over 512 MB, not a result file sonicsim wrote");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(name + ": cannot read it");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.empty()) throw InputError(name + ": empty; expected a JSON document");
  return text;
}

void throw_not_json(const std::string& name, const std::string& text, std::size_t byte) {
  const auto [line, column] = line_column(text, byte > 0 ? byte - 1 : 0);
  throw InputError(
      name + ":" + std::to_string(line) + ":" + std::to_string(column) +
      ": not valid JSON (cut short or edited by hand?); expected the file as sonicsim writes it");
}

void throw_number_overflow(const std::string& name, const std::string& text) {
  std::string key;
  try {
    [[maybe_unused]] const auto parsed =
        nlohmann::json::parse(text, [&key](int, nlohmann::json::parse_event_t event, nlohmann::json& value) {
          if (event == nlohmann::json::parse_event_t::key) key = value.get<std::string>();
          return true;
        });
  } catch (const nlohmann::json::exception&) {
  }
  throw InputError(name + ": key " + (key.empty() ? std::string("(the document)") : key) +
                   ": got a number beyond the range of a double; expected the file as sonicsim writes it "
                   "(finite numbers)");
}

JsonFields JsonFields::read_file(const std::filesystem::path& path) {
  const std::string name = path.string();
  auto document =
      std::make_shared<nlohmann::json>(parse_result_json<nlohmann::json>(read_result_text(path), name));
  JsonFields fields(*document, name);
  fields.owned_ = std::move(document);
  return fields;
}

JsonFields::JsonFields(const nlohmann::json& node, std::string file, std::string key_path)
    : node_(&node), file_(std::move(file)), key_path_(std::move(key_path)) {}

void JsonFields::fail(const std::string& expected) const {
  throw InputError(file_ + ": key " + (key_path_.empty() ? std::string("(the document)") : key_path_) +
                   ": got " + describe_json(*node_) + "; expected " + expected);
}

bool JsonFields::has(const std::string& key) const {
  return node_->is_object() && node_->contains(key);
}

JsonFields JsonFields::at(const std::string& key) const {
  if (!node_->is_object()) fail("an object with the key '" + key + "'");
  const auto found = node_->find(key);
  const std::string path = key_path_.empty() ? key : key_path_ + "." + key;
  if (found == node_->end())
    throw InputError(file_ + ": key " + path + " is missing; expected the file as sonicsim writes it");
  JsonFields child(*found, file_, path);
  child.owned_ = owned_;
  return child;
}

JsonFields JsonFields::at(std::size_t index) const {
  if (!node_->is_array() || index >= node_->size())
    fail("an array of at least " + std::to_string(index + 1) + " element(s)");
  JsonFields child((*node_)[index], file_, key_path_ + "[" + std::to_string(index) + "]");
  child.owned_ = owned_;
  return child;
}

std::size_t JsonFields::size() const {
  if (!node_->is_array()) fail("an array");
  return node_->size();
}

std::size_t JsonFields::members() const {
  if (!node_->is_object()) fail("an object");
  return node_->size();
}

double JsonFields::number() const {
  if (!node_->is_number()) fail("a number");
  const double value = node_->get<double>();
  if (!std::isfinite(value)) fail("a finite number");
  return value;
}

double JsonFields::number_or(const std::string& key, double fallback) const {
  return has(key) ? at(key).number() : fallback;
}

long long JsonFields::integer() const {
  if (!node_->is_number_integer() && !node_->is_number_unsigned()) fail("a whole number");
  if (node_->is_number_unsigned() && node_->get<unsigned long long>() > 1ull << 62)
    fail("a whole number below 2^62");
  return node_->get<long long>();
}

bool JsonFields::boolean() const {
  if (!node_->is_boolean()) fail("true or false");
  return node_->get<bool>();
}

std::string JsonFields::text() const {
  if (!node_->is_string()) fail("a string");
  return node_->get<std::string>();
}

} // namespace sonicsim

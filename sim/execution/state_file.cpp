#include "sim/execution/state_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace sonicsim {

void write_file_atomically(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::path partial = path;
  partial += ".partial";
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
      const int error = errno;
      std::error_code ignored;
      std::filesystem::remove(partial, ignored); // nothing half-written is left behind
      throw std::runtime_error("cannot write '" + partial.string() +
                               "': " + (error ? std::strerror(error) : "the write failed"));
    }
  }
  std::error_code error;
  std::filesystem::rename(partial, path, error);
  if (error) {
    std::error_code ignored;
    std::filesystem::remove(partial, ignored);
    throw std::runtime_error("cannot write '" + path.string() + "': " + error.message());
  }
}

void check_output_file(const std::string& option, const std::filesystem::path& path,
                       const std::vector<std::filesystem::path>& inputs) {
  namespace fs = std::filesystem;
  const std::string named = option + " '" + path.string() + "'";
  if (path.empty()) throw InputError(option + " '': expected a file name (or - for standard output)");
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (!fs::exists(status)) {
    const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
    if (!fs::is_directory(folder, error))
      throw InputError(named + ": its folder " + folder.string() + " does not exist; expected a file in one");
    return;
  }
  if (fs::is_directory(status)) throw InputError(named + ": a directory; expected a file name");
  for (const auto& input : inputs)
    if (fs::equivalent(path, input, error))
      throw InputError(named + ": one of the input files (" + input.string() +
                       "); expected a new file, the input would be lost");
  if (!fs::is_regular_file(status) && !fs::is_character_file(status) && !fs::is_fifo(status))
    throw InputError(named +
                     ": a special file that is not a character device or a pipe; expected a file name");
  fs::path partial = path;
  partial += ".partial";
  if (fs::exists(partial, error) && !fs::is_regular_file(partial, error))
    throw InputError(named + ": its partial file " + partial.string() + " exists and is not a regular file");
}

void write_output_file(const std::string& option, const std::filesystem::path& path, const std::string& text,
                       const std::vector<std::filesystem::path>& inputs) {
  namespace fs = std::filesystem;
  check_output_file(option, path, inputs);
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    // A device or a pipe: written in place, never replaced.
    std::ofstream out(path, std::ios::binary);
    out << text;
    out.flush();
    if (!out) {
      const int code = errno;
      throw std::runtime_error("cannot write '" + path.string() +
                               "': " + (code ? std::strerror(code) : "the write failed"));
    }
    return;
  }
  write_file_atomically(path, text);
}

std::string json_problem(const nlohmann::json::exception& error) {
  if (const auto* parse = dynamic_cast<const nlohmann::json::parse_error*>(&error))
    return "not complete JSON: it stops making sense at byte " + std::to_string(parse->byte);
  // 406: a number such as 1e999, beyond the range of a double.
  if (error.id == 406) return "a number beyond the range of a double";
  if (dynamic_cast<const nlohmann::json::out_of_range*>(&error)) return "a field it must hold is missing";
  if (dynamic_cast<const nlohmann::json::type_error*>(&error))
    return "a field holds the wrong kind of value (e.g. a list or text where a count belongs)";
  return "its content is not what sonicsim wrote";
}

} // namespace sonicsim

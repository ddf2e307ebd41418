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
  std::filesystem::rename(partial, path);
}

std::string json_problem(const nlohmann::json::exception& error) {
  if (const auto* parse = dynamic_cast<const nlohmann::json::parse_error*>(&error))
    return "not complete JSON: it stops making sense at byte " + std::to_string(parse->byte);
  if (dynamic_cast<const nlohmann::json::out_of_range*>(&error)) return "a field it must hold is missing";
  if (dynamic_cast<const nlohmann::json::type_error*>(&error))
    return "a field holds the wrong kind of value (e.g. a list or text where a count belongs)";
  return "its content is not what sonicsim wrote";
}

} // namespace sonicsim

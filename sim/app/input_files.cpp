#include "sim/app/input_files.hpp"

#include "sim/scenario/input_error.hpp"

#include <filesystem>
#include <system_error>

namespace sonicsim {

void require_input_file(const std::string& path, const std::string& expected) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) return;
  throw InputError(path + ": " + (std::filesystem::exists(path, ec) ? "not a regular file" : "no such file") +
                   "; expected " + expected);
}

void require_input_directory(const std::string& path, const std::string& expected) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return;
  throw InputError(path + ": " +
                   (std::filesystem::exists(path, ec) ? "not a directory" : "no such directory") +
                   "; expected " + expected);
}

void require_input_path(const std::string& path, const std::string& expected) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw InputError(path + ": no such file or directory; expected " + expected);
}

} // namespace sonicsim

#include "sim/app/common/input_files.hpp"

#include "sim/scenario/input_error.hpp"
#include "sim/text/input_file.hpp"

#include <filesystem>
#include <system_error>

namespace sonicsim {
namespace {

// PATH is what `is_kind` asks, or an InputError naming it: `absent` when nothing is there, `other` when
// something else is.
void require_input(const std::string& path, bool (*is_kind)(const std::filesystem::path&, std::error_code&),
                   const char* absent, const char* other, const std::string& expected) {
  std::error_code ec;
  if (is_kind(path, ec)) return;
  const bool too_long = ec == std::errc::filename_too_long;
  throw InputError(path + ": " + (std::filesystem::exists(path, ec) ? other : absent) +
                   (too_long ? " (name too long)" : "") + "; expected " + expected);
}

} // namespace

void require_input_file(const std::string& path, const std::string& expected) {
  // The one rule of every input file (sim/text/input_file.hpp): regular, and within the size bound.
  if (const auto problem = input_file_problem(path))
    throw InputError(path + ": " + *problem + "; expected " + expected);
}

void require_input_directory(const std::string& path, const std::string& expected) {
  require_input(path, std::filesystem::is_directory, "no such directory", "not a directory", expected);
}

void require_input_path(const std::string& path, const std::string& expected) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw InputError(path + ": no such file or directory; expected " + expected);
}

} // namespace sonicsim

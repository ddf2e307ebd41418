#include "sim/text/input_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>

namespace sonicsim {

std::optional<std::string> input_file_problem(const std::string& path, std::uintmax_t max_bytes) {
  // stat, not std::filesystem: its errors are texts of the library (a name too long reads "filesystem error:
  // status: File name too long [...]"); this answers every case in the project's words.
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    if (errno == ENAMETOOLONG) return std::string("no such file (name too long)");
    if (errno == ENOENT || errno == ENOTDIR) return std::string("no such file");
    return std::string("cannot be read: ") + std::strerror(errno);
  }
  if (S_ISFIFO(info.st_mode)) return std::string("not a regular file (a FIFO)");
  if (S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode)) return std::string("not a regular file (a device)");
  if (S_ISDIR(info.st_mode)) return std::string("not a regular file (a directory)");
  if (!S_ISREG(info.st_mode)) return std::string("not a regular file");
  if (static_cast<std::uintmax_t>(info.st_size) > max_bytes)
    return std::to_string(info.st_size) + " bytes, more than the " + std::to_string(max_bytes >> 20) +
           " MiB an input file may hold";
  return std::nullopt;
}

std::string read_input_file(const std::string& path, std::uintmax_t max_bytes) {
  if (const auto problem = input_file_problem(path, max_bytes)) throw std::runtime_error(*problem);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(std::string("cannot open: ") + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace sonicsim

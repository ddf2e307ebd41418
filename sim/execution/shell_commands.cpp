#include "sim/execution/shell_commands.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include <sys/wait.h>

namespace fs = std::filesystem;

namespace sonicsim {

std::string shell_quote(const std::string& text) {
  if (!text.empty() && text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                              "_-+=./:,@%") == std::string::npos)
    return text;
  std::string quoted = "'";
  for (const char c : text)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string shell_command(const std::vector<std::string>& words) {
  std::string line;
  for (const auto& word : words)
    line += (line.empty() ? "" : " ") + shell_quote(word);
  return line;
}

std::string own_executable() {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error)
    throw std::runtime_error("cannot find the sonicsim executable (/proc/self/exe): " + error.message());
  return self.string();
}

std::pair<int, std::string> run_shell(const std::string& line) {
  FILE* pipe = ::popen((line + " 2>&1").c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run: " + line);
  std::string output;
  std::array<char, 4096> buffer{};
  while (const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe))
    output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128, output};
}

} // namespace sonicsim

#include "sim/execution/process_arguments.hpp"

#include "sim/execution/shell_commands.hpp"

namespace sonicsim {
namespace {
std::vector<std::string>& recorded() {
  static std::vector<std::string> arguments;
  return arguments;
}
} // namespace

void record_process_arguments(int argc, const char* const* argv) {
  recorded().assign(argv + (argc > 0 ? 1 : 0), argv + argc);
}

std::vector<std::string> repeat_command(const std::vector<std::string>& extra) {
  std::vector<std::string> command{own_executable()};
  command.insert(command.end(), recorded().begin(), recorded().end());
  command.insert(command.end(), extra.begin(), extra.end());
  return command;
}

std::vector<std::string> own_command(const std::string& subcommand,
                                     const std::vector<std::string>& simgrid_settings) {
  std::vector<std::string> command{own_executable()};
  for (const auto& setting : simgrid_settings) {
    command.push_back("--cfg");
    command.push_back(setting);
  }
  command.push_back(subcommand);
  return command;
}

} // namespace sonicsim

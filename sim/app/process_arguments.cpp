#include "sim/app/process_arguments.hpp"

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

const std::vector<std::string>& process_arguments() {
  return recorded();
}

} // namespace sonicsim

#include "sim/app/import_output.hpp"

#include "sim/execution/state_file.hpp"
#include "sim/scenario/input_error.hpp"

namespace sonicsim {

ImportOutput::ImportOutput(std::optional<std::string> yaml_option, std::vector<std::filesystem::path> inputs,
                           bool json)
    : yaml_option_(std::move(yaml_option)), inputs_(std::move(inputs)), json_(json) {
  if (json_ && yaml_option_ && !to_file())
    throw InputError(
        "--yaml - and --json both write the result to stdout: give one of them (or --yaml FILE)");
  if (to_file()) check_output_file("--yaml", *yaml_option_, inputs_);
}

FILE* ImportOutput::report() const {
  if (json_) {
    // The document holds what the report says; the text goes nowhere.
    static FILE* nowhere = std::fopen("/dev/null", "w");
    return nowhere;
  }
  return yaml_option_ == "-" ? stderr : stdout;
}

void ImportOutput::emit(const std::string& yaml, const std::string& what) const {
  if (json_) {
    if (to_file()) {
      write_output_file("--yaml", *yaml_option_, yaml, inputs_);
      std::fprintf(stderr, "wrote the %s to %s\n", what.c_str(), yaml_option_->c_str());
    }
    return;
  }
  if (!yaml_option_) {
    std::printf("\n%s", yaml.c_str());
  } else if (!to_file()) {
    std::fflush(stderr);
    std::printf("%s", yaml.c_str());
  } else {
    write_output_file("--yaml", *yaml_option_, yaml, inputs_);
    std::fprintf(report(), "\nwrote the %s to %s\n", what.c_str(), yaml_option_->c_str());
  }
  std::fflush(stdout);
}

} // namespace sonicsim

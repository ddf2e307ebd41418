#include "sim/app/import_output.hpp"

#include "sim/execution/state_file.hpp"

namespace sonicsim {

ImportOutput::ImportOutput(std::optional<std::string> yaml_option, std::vector<std::filesystem::path> inputs)
    : yaml_option_(std::move(yaml_option)), inputs_(std::move(inputs)) {
  if (to_file()) check_output_file("--yaml", *yaml_option_, inputs_);
}

void ImportOutput::emit(const std::string& yaml, const std::string& what) const {
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

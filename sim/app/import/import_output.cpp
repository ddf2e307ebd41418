#include "sim/app/import/import_output.hpp"

#include "sim/execution/state_file.hpp"
#include "sim/scenario/input_error.hpp"

namespace sonicsim {

std::string curve_points_yaml(const std::vector<std::pair<double, double>>& points) {
  std::string text = "[";
  char number[96];
  for (std::size_t i = 0; i < points.size(); ++i) {
    std::snprintf(number, sizeof number, "%s[%.6g, %.6g]", i ? ", " : "", points[i].first, points[i].second);
    text += number;
  }
  return text + "]";
}

nlohmann::ordered_json curve_points_json(const std::vector<std::pair<double, double>>& points) {
  nlohmann::ordered_json curve = nlohmann::ordered_json::array();
  for (const auto& [batch, rate] : points)
    curve.push_back({batch, rate});
  return curve;
}

ImportOutput::ImportOutput(std::optional<std::string> yaml_option, std::vector<std::filesystem::path> inputs,
                           bool json)
    : yaml_option_(std::move(yaml_option)), inputs_(std::move(inputs)), json_(json) {
  if (json_ && yaml_option_ && !to_file())
    throw InputError(
        "--yaml - and --json both write the result to stdout: give one of them (or --yaml FILE)");
  if (to_file()) check_output_file("--yaml", *yaml_option_, inputs_);
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

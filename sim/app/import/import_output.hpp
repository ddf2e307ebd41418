// Where an import's report and YAML go, the same for every `sonicsim import`: without --yaml both on stdout;
// with `--yaml -` the YAML alone on stdout (valid YAML when redirected) and the report on stderr; with
// `--yaml FILE` the YAML written there (never over one of the inputs, a folder or a device node) and the
// report on stdout. With --json the document is the result on stdout: the report is not printed (its content
// is in the document), the YAML is in the document too, and a --yaml FILE is still written.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sonicsim {

// A measured curve's points as the scenario's YAML writes them, six significant digits:
// "[[1, 424.989], [4, 1567.4]]".
std::string curve_points_yaml(const std::vector<std::pair<double, double>>& points);
// The same as a JSON array of [batch, inferences per second] pairs, at full precision.
nlohmann::ordered_json curve_points_json(const std::vector<std::pair<double, double>>& points);

class ImportOutput {
public:
  // Checks a --yaml FILE before any work; `inputs` are the files it must not replace.
  ImportOutput(std::optional<std::string> yaml_option, std::vector<std::filesystem::path> inputs,
               bool json = false);
  bool to_file() const { return yaml_option_ && *yaml_option_ != "-"; }
  // Where the text report goes: stdout, or stderr with --yaml - (with --json there is none: the caller
  // writes the document instead).
  FILE* report() const { return yaml_option_ == "-" ? stderr : stdout; }
  // After the report: the YAML where it goes; `what` names it in the line that says where it was written.
  void emit(const std::string& yaml, const std::string& what) const;

private:
  std::optional<std::string> yaml_option_;
  std::vector<std::filesystem::path> inputs_;
  bool json_ = false;
};

} // namespace sonicsim

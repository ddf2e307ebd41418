// The one error type of the scenario language. It says where (file, line, column, or the --set argument that
// introduced the value), which key (a path such as workload.pipeline[1].max_batch) and what is wrong, so that
// a user can fix the YAML without reading the simulator's source.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace sonicsim {

struct ScenarioError : std::runtime_error {
  // line and column are 1-based; 0 means unknown (missing file, or a value that came from --set).
  ScenarioError(std::string file_, int line_, int column_, std::string key_path_, std::string message_)
      : std::runtime_error(render(file_, line_, column_, key_path_, message_)), file(std::move(file_)),
        line(line_), column(column_), key_path(std::move(key_path_)), message(std::move(message_)) {}

  std::string file; // the source name, or "--set PATH=VALUE" for a value given on the command line
  int line = 0;
  int column = 0;
  std::string key_path; // empty when the error is not about one key (malformed YAML, missing file)
  std::string message;  // what is wrong: the offending value and what is expected

  // FILE:LINE:COL: key 'PATH': MESSAGE, leaving out the parts that are unknown.
  static std::string render(const std::string& file, int line, int column, const std::string& key_path,
                            const std::string& message) {
    std::string out = file;
    if (line > 0) out += ":" + std::to_string(line) + ":" + std::to_string(column);
    out += ": ";
    if (!key_path.empty()) out += "key '" + key_path + "': ";
    return out + message;
  }
};

} // namespace sonicsim

// Test helper: runs a scenario in a child process (SimGrid allows one engine per process) and returns its
// summary.
#pragma once

#include "sim/metrics/run_recorder.hpp"

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sonicsim::testing {

// `config` is a file name under configs/; overrides are --set expressions.
RunSummary simulate(const std::string& config, const std::vector<std::string>& overrides = {});
// The same for a scenario given as YAML text (named `name` in messages).
RunSummary simulate_text(const std::string& yaml, const std::string& name,
                         const std::vector<std::string>& overrides = {});
double module_mean_s(const RunSummary& summary, const std::string& module);
std::string config_path(const std::string& config);

// Runs the sonicsim binary with arguments; returns its exit code and everything it printed.
struct CommandResult {
  int exit_code = -1;
  std::string output;
};
CommandResult run_sonicsim(const std::string& arguments);

// The files of a folder, sorted by path (perf_analyzer files, one per batch size).
std::vector<std::string> sorted_files(const std::string& folder);

// A file's bytes (empty when it cannot be read), and a JSON file parsed.
std::string read_text(const std::filesystem::path& path);
nlohmann::json read_json(const std::filesystem::path& path);

} // namespace sonicsim::testing

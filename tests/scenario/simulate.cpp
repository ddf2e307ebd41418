#include "simulate.hpp"

#include "sim/engine/simulation.hpp"
#include "sim/execution/process_pool.hpp"
#include "sim/metrics/summary_json.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>

namespace sonicsim::testing {

std::string config_path(const std::string& config) {
  return std::string(SONICSIM_SOURCE_DIR) + "/configs/" + config;
}

namespace {

RunSummary simulate_scenario(const Scenario& scenario) {
  RunSummary summary;
  run_in_child_processes(
      1, 1,
      [&scenario](std::size_t) {
        return run_summary_to_json(run_simulation(scenario, RunOptions{}).summary).dump();
      },
      [&summary](std::size_t, const ChildResult& child) {
        if (!child.ok) throw std::runtime_error("simulation failed: " + child.output);
        summary = run_summary_from_json(nlohmann::ordered_json::parse(child.output));
      });
  return summary;
}

} // namespace

RunSummary simulate(const std::string& config, const std::vector<std::string>& overrides) {
  return simulate_scenario(load_scenario_file(config_path(config), overrides));
}

RunSummary simulate_text(const std::string& yaml, const std::string& name,
                         const std::vector<std::string>& overrides) {
  return simulate_scenario(load_scenario_text(yaml, name, overrides));
}

double module_mean_s(const RunSummary& summary, const std::string& module) {
  for (const auto& [name, stats] : summary.modules)
    if (name == module) return stats.mean_s;
  throw std::runtime_error("no module " + module);
}

CommandResult run_sonicsim(const std::string& arguments) {
  const std::string command = std::string(SONICSIM_BINARY) + " " + arguments + " 2>&1";
  CommandResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("popen failed");
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe))
    result.output += buffer.data();
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

nlohmann::json read_json(const std::filesystem::path& path) {
  return nlohmann::json::parse(read_text(path));
}

std::vector<std::string> sorted_files(const std::string& folder) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(folder))
    files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace sonicsim::testing

// `sonicsim import supersonic VALUES.yaml`: a SuperSONIC Helm values file read as chart 0.3.1 means it
// (sim/scenario/supersonic_values.hpp), printed as what was read (line, key, value, meaning), what is not
// simulated, and the server group's YAML; or name the file in a scenario (server_groups.NAME.
// supersonic_values: PATH) to run it as it is.
#include "sim/app/commands.hpp"
#include "sim/app/common/input_files.hpp"
#include "sim/app/common/scenario_source.hpp"
#include "sim/app/import/import_output.hpp"
#include "sim/metrics/json_fields.hpp"
#include "sim/scenario/supersonic_values.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>

namespace sonicsim {
namespace {

struct SupersonicArguments {
  std::string file;
  std::optional<std::string> yaml;
  std::string group = "triton";
  bool json = false;
  std::optional<std::string> chart; // --chart 0.3.1|main: the version, when the file's keys do not say
};

void print_supersonic_report(FILE* out, const SupersonicValues& values) {
  std::fprintf(out, "SuperSONIC values: %s, read with chart %s's meaning (%s)\n\n", values.file.c_str(),
               supersonic_chart_name(values.chart), values.chart_evidence.c_str());
  std::fprintf(out, "%5s  %-48s %-24s %s\n", "line", "key", "value", "in sonicsim");
  for (const auto& reading : values.read)
    std::fprintf(out, "%5s  %-48s %-24s %s\n", reading.line ? std::to_string(reading.line).c_str() : "-",
                 reading.key.c_str(), reading.value.c_str(), reading.meaning.c_str());
  std::fprintf(out, "\n  line -: not written in the file, the chart's value\n");
  std::fprintf(out, "\nnot simulated, or worth knowing:\n");
  for (const auto& note : values.notes)
    std::fprintf(out, "  - %s\n", note.c_str());
}

std::string group_yaml(const SupersonicArguments& arguments, const SupersonicValues& values) {
  std::string yaml = "# YAML: under platform.server_groups." + arguments.group +
                     " (or write supersonic_values: " + arguments.file +
                     " there, and only startup_delay under autoscaler)\n";
  return yaml + supersonic_group_yaml(values);
}

int import_supersonic(const SupersonicArguments& arguments) {
  require_input_file(arguments.file, "a SuperSONIC Helm values.yaml");
  const ImportOutput output(arguments.yaml, {arguments.file}, arguments.json);
  std::optional<SupersonicChart> chart;
  if (arguments.chart)
    chart = *arguments.chart == "main" ? SupersonicChart::main : SupersonicChart::release_0_3_1;
  const SupersonicValues values = read_supersonic_values(arguments.file, chart);
  if (!arguments.json) print_supersonic_report(output.report(), values);
  const std::string yaml = group_yaml(arguments, values);
  output.emit(yaml, "server group's YAML");
  if (arguments.json) {
    nlohmann::ordered_json read = nlohmann::ordered_json::array();
    for (const auto& reading : values.read)
      read.push_back({{"line", value_or_null(reading.line ? std::optional<int>(reading.line) : std::nullopt)},
                      {"key", reading.key},
                      {"value", reading.value},
                      {"meaning", reading.meaning}});
    const nlohmann::ordered_json out{{"file", values.file},
                                     {"chart", supersonic_chart_name(values.chart)},
                                     {"chart_evidence", values.chart_evidence},
                                     {"server_type", values.server_type},
                                     {"group", arguments.group},
                                     {"read", read},
                                     {"notes", values.notes},
                                     {"yaml", yaml}};
    std::printf("%s\n", json_text(out, 1).c_str());
  }
  return exit_ok;
}

} // namespace

void register_import_supersonic(CLI::App& import_command, int& result) {
  auto arguments = std::make_shared<SupersonicArguments>();
  auto* command = import_command.add_subcommand(
      "supersonic",
      "A SuperSONIC Helm values file (chart 0.3.1 or the main branch, detected from its keys): the "
      "autoscaler (KEDA and the HPA's behaviour), the "
      "query and threshold, Envoy's balancing and rate limiter, as a server group's YAML; every key read "
      "and every key not simulated named");
  // Checked where the command runs (sim/app/common/input_files.hpp says why not here).
  command->add_option("file", arguments->file, "values.yaml")->required();
  command->add_option("--yaml", arguments->yaml,
                      "Write the group's YAML to this file (the report stays on stdout), or '-' for the YAML "
                      "alone on stdout with the report on stderr");
  command
      ->add_option("--group", arguments->group, "Server group name for the YAML's comment (default: triton)")
      ->check(plain_name);
  command
      ->add_option("--chart", arguments->chart,
                   "The chart version to read the file as (0.3.1 or main), for a file whose keys do not say; "
                   "refused when its keys are the other version's")
      ->check(CLI::IsMember({"0.3.1", "main"}));
  command->add_flag(
      "--json", arguments->json,
      "Print the import as one JSON document on stdout (every key read with its line, the notes, "
      "the YAML), and nothing else there");
  command->callback([arguments, &result]() { result = guarded(*arguments, import_supersonic); });
}

} // namespace sonicsim

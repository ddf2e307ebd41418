// A server group named by a SuperSONIC values file (server_groups.NAME.supersonic_values and
// supersonic_chart): the file read as its chart version means it (sim/scenario/supersonic_values.hpp), and
// the group's own keys checked against it.
#include "sim/scenario/scenario_sections.hpp"
#include "sim/scenario/supersonic_values.hpp"
#include "sim/scenario/yaml_values.hpp"
#include "sim/text/input_file.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace sonicsim::detail {

// A group whose autoscaler, pods and proxy come from a SuperSONIC values file: the scenario may add only
// what the file cannot say (the start-up time, failures); anything else it sets twice is an error.
void read_supersonic_group(const Cursor& c, ServerGroup& g) {
  namespace fs = std::filesystem;
  const Cursor file = c["supersonic_values"];
  const fs::path base =
      c.source_name().front() == '<' ? fs::current_path() : fs::path(c.source_name()).parent_path();
  g.supersonic_values_file = (base / read_string(file)).string();
  if (const auto problem = input_file_problem(g.supersonic_values_file))
    file.fail(
        g.supersonic_values_file + ": " + *problem +
        " (a relative path is read from the scenario file's folder); expected a SuperSONIC values file");
  std::optional<SupersonicChart> chart;
  if (const Cursor version = c["supersonic_chart"]; version.present())
    chart = read_choice(version, {"0.3.1", "main"}) == "main" ? SupersonicChart::main
                                                              : SupersonicChart::release_0_3_1;
  const SupersonicValues values = read_supersonic_values(g.supersonic_values_file, chart);
  for (const char* key : {"pods", "proxy"})
    if (c[key].present())
      c[key].fail(std::string("the group's ") + key + " come from its supersonic_values (" +
                  read_string(file) + "): write them there, or here without the values file, not both");
  if (const Cursor autoscaler = c["autoscaler"]; autoscaler.present()) {
    for (const auto& entry : autoscaler.node())
      if (entry.first.Scalar() != "startup_delay")
        autoscaler.key_cursor(entry.first)
            .fail("set by the group's supersonic_values (" + read_string(file) +
                  "); only startup_delay, which a values file does not hold, may be written here");
    if (!values.autoscaler)
      autoscaler.fail("no autoscaler: the group's supersonic_values has keda.enabled false");
  }
  if (values.devices_per_pod && c["devices"]["count"].present() &&
      read_int(c["devices"]["count"], 0, 1'024) != *values.devices_per_pod)
    c["devices"]["count"].fail("the group's supersonic_values requests " +
                               std::to_string(*values.devices_per_pod) +
                               " GPU(s) per server (triton.resources.limits): the two disagree");
  if (values.devices_per_pod) g.devices_per_pod = *values.devices_per_pod;
  g.proxy = values.proxy;
  if (values.autoscaler) {
    g.autoscaler = values.autoscaler;
    if (const Cursor delay = c["autoscaler"]["startup_delay"]; delay.present())
      g.autoscaler->startup_delay_s = read_interval_s(delay, "240s", 0);
    g.pods = g.autoscaler->max_pods;
  } else {
    g.pods = values.pods;
  }
  g.supersonic_values_notes = values.notes;
  g.supersonic_chart = supersonic_chart_name(values.chart);
  g.supersonic_values_notes.insert(g.supersonic_values_notes.begin(),
                                   std::string("read as chart ") + supersonic_chart_name(values.chart) +
                                       " (" + values.chart_evidence + ")");
}

} // namespace sonicsim::detail

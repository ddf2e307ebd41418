#include "sim/app/calibrate/joint_derived.hpp"

#include "sim/metrics/number_text.hpp"
#include "sim/random/distribution.hpp"

#include <cmath>
#include <string>

namespace sonicsim {
namespace {

// The released bytes per event of a module in a scenario, when the spec states them.
const JointConstraint* released_bytes(const JointSpec& spec, const std::string& scenario,
                                      const std::string& module) {
  for (const auto& k : spec.constraints)
    if (k.quantity == "input_bytes_per_event" && k.module == module && k.scenario == scenario) return &k;
  return nullptr;
}

double residual_sd(double simulated, double expected, double sd) {
  return sd > 0.0 ? (simulated - expected) / sd : 0.0;
}

// A served module at one point: simulated input bytes/s per job, and what the measured rate gives.
nlohmann::ordered_json module_rate(const JointSpec& spec, const SeriesPointRun& run, const Module& module,
                                   std::string& line) {
  const auto model = run.scenario.models.find(module.model);
  const double bytes_per_event =
      expected_count(module.inferences) *
      (model == run.scenario.models.end() ? 0.0 : model->second.input_bytes_per_inference);
  const double simulated = bytes_per_event * run.value;
  nlohmann::ordered_json out{{"module", module.name}, {"input_bytes_per_s_per_job", simulated}};
  line += "  " + module.name + " " + significant(simulated / 1e3, 4) + " kB/s";
  const JointConstraint* k = released_bytes(spec, run.series->scenario, module.name);
  if (!k) return out;
  const auto& p = *run.point;
  const double expected = k->value * p.y;
  const double sd = std::hypot(k->value * p.sd, k->sd * p.y);
  const double residual = residual_sd(simulated, expected, sd);
  out["released_input_bytes_per_s_per_job"] = expected;
  out["residual_sd"] = residual;
  line += " (released " + significant(expected / 1e3, 4) + ", " + significant(residual, 2) + " sd)";
  return out;
}

} // namespace

nlohmann::ordered_json derived_quantities_json(const JointSpec& spec, const std::vector<SeriesPointRun>& runs,
                                               const TextOutput& say) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  bool header = false;
  for (const auto& run : runs) {
    if (run.series->observable.figure != Figure::events_per_s_per_job || run.summary.gpus <= 0) continue;
    if (!header) {
      say("\nderived at the adopted values (the measured rate with the scenario's inferences per event and "
          "the "
          "released bytes per event, residuals in sd):\n");
      header = true;
    }
    const auto& p = *run.point;
    double inferences_per_event = 0.0;
    for (const auto& module : run.scenario.workload.pipeline)
      if (module.served()) inferences_per_event += expected_count(module.inferences);
    const double jobs_per_device = p.x / run.summary.gpus;
    const double device_rate = run.summary.inferences_per_s / run.summary.gpus;
    const double implied = p.y * jobs_per_device * inferences_per_event;
    const double implied_sd = p.sd * jobs_per_device * inferences_per_event;
    const double device_residual = residual_sd(device_rate, implied, implied_sd);
    std::string line = run.series->name + " at " + significant(p.x, 4) + ": " + significant(device_rate, 4) +
                       " inferences/s per " + run.summary.group_usage.front().device_type +
                       " (measured rate: " + significant(implied, 4) + ", " +
                       significant(device_residual, 2) + " sd);";
    nlohmann::ordered_json row{{"series", run.series->name},
                               {"x", p.x},
                               {"inferences_per_event", inferences_per_event},
                               {"inferences_per_s_per_device", device_rate},
                               {"measured_rate_inferences_per_s_per_device", implied},
                               {"residual_sd", device_residual}};
    for (const auto& module : run.scenario.workload.pipeline)
      if (module.served()) row["modules"].push_back(module_rate(spec, run, module, line));
    say("  %s\n", line.c_str());
    out.push_back(row);
  }
  return out;
}

} // namespace sonicsim

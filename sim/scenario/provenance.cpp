#include "sim/scenario/provenance.hpp"

#include "sim/scenario/overrides.hpp"
#include "sim/scenario/scenario_error.hpp"
#include "sim/scenario/scenario_sections.hpp"
#include "sim/scenario/yaml_values.hpp"

#include <algorithm>
#include <set>

namespace sonicsim {
namespace {

// The device types the groups serving model `model` use.
std::set<std::string> device_types_of(const Scenario& scenario, const std::string& model) {
  std::set<std::string> types;
  const auto found = scenario.models.find(model);
  if (found == scenario.models.end()) return types;
  for (const auto& group : scenario.platform.server_groups)
    if (std::find(found->second.deploy.groups.begin(), found->second.deploy.groups.end(), group.name) !=
        found->second.deploy.groups.end())
      types.insert(group.device_type);
  return types;
}

bool in_use(const Scenario& scenario, const std::vector<std::string>& parts) {
  // workload.pipeline.NAME.inferences: a count of inferences matters only to a module that sends them (its
  // direct time is per event).
  if (parts.size() >= 4 && parts[0] == "workload" && parts[1] == "pipeline" && parts[3] == "inferences")
    return std::any_of(scenario.workload.pipeline.begin(), scenario.workload.pipeline.end(),
                       [&](const Module& m) { return m.name == parts[2] && m.served(); });
  if (parts.size() < 2 || parts[0] != "models") return true;
  const std::string& model = parts[1];
  const bool called = std::any_of(scenario.workload.pipeline.begin(), scenario.workload.pipeline.end(),
                                  [&](const Module& m) { return m.served() && m.model == model; });
  if (!called) return false;
  // models.M.throughput.TYPE...: that device's curve, used only where a group of M has that type.
  if (parts.size() >= 4 && parts[2] == "throughput")
    return device_types_of(scenario, model).count(parts[3]) > 0;
  return true;
}

} // namespace

const char* provenance_kind_name(Provenance::Kind kind) {
  switch (kind) {
  case Provenance::Kind::measured:
    return "measured";
  case Provenance::Kind::derived:
    return "derived";
  case Provenance::Kind::assumed:
    return "assumed";
  case Provenance::Kind::calibrated:
    return "calibrated";
  }
  return "assumed";
}

std::vector<Provenance> ranged_in_use(const Scenario& scenario) {
  std::vector<Provenance> out;
  for (const auto& entry : scenario.provenance)
    if (!entry.range_low.empty() && in_use(scenario, split_key_path(entry.key))) out.push_back(entry);
  return out;
}

std::vector<Provenance> assumptions_in_use(const Scenario& scenario) {
  std::vector<Provenance> out;
  for (const auto& entry : scenario.provenance)
    if ((entry.kind == Provenance::Kind::assumed || entry.kind == Provenance::Kind::calibrated) &&
        in_use(scenario, split_key_path(entry.key)))
      out.push_back(entry);
  return out;
}

void add_variant_assumptions(Scenario& scenario, const Variant& variant) {
  const std::string why =
      "variant '" + variant.name + "'" +
      (variant.description.empty() ? std::string(", a what-if") : ": " + variant.description);
  for (const auto& argument : variant.overrides) {
    const std::string path = argument.substr(0, argument.find('='));
    // The load is the question asked of the variant (and compare and plan set it), not a value its answer
    // rests on.
    if (path == "workload.jobs") continue;
    auto& entries = scenario.provenance;
    entries.erase(std::remove_if(entries.begin(), entries.end(),
                                 [&](const Provenance& p) {
                                   // A measurement or derivation no longer describes what the variant
                                   // changed; an assumption or a calibration written for it still does.
                                   return key_paths_overlap(path, p.key) &&
                                          (p.kind == Provenance::Kind::measured ||
                                           p.kind == Provenance::Kind::derived);
                                 }),
                  entries.end());
    Provenance p;
    p.key = path;
    p.kind = Provenance::Kind::assumed;
    p.text = why;
    p.origin = variant.origin;
    entries.push_back(p);
  }
}

std::string assumptions_text(const std::vector<Provenance>& assumptions, const std::string& indent) {
  std::string text;
  for (const auto& a : assumptions)
    text += indent + a.key + (a.kind == Provenance::Kind::calibrated ? " (calibrated)" : "") + ": " + a.text +
            "\n";
  return text;
}

namespace detail {

std::vector<Provenance> read_provenance(const Cursor& c) {
  std::vector<Provenance> entries;
  for (const auto& entry : c.node()) {
    const Cursor key = c.key_cursor(entry.first);
    const std::string path = key.scalar("a key path, e.g. platform.wan.rtt");
    if (path.rfind("provenance", 0) == 0 || path.rfind("variants", 0) == 0)
      key.fail("expected a key path of the scenario's values, not of provenance or variants");
    try {
      validate_key_path(path, "provenance");
    } catch (const ScenarioError& e) {
      key.fail(e.message);
    }
    const Cursor value = c[path];
    Provenance p;
    p.key = path;
    p.origin = c.source_name() + ":" + std::to_string(key.mark().line + 1) + ":" +
               std::to_string(key.mark().column + 1);
    int kinds = 0;
    for (const auto& [name, kind] :
         {std::pair{"measured", Provenance::Kind::measured}, std::pair{"derived", Provenance::Kind::derived},
          std::pair{"assumed", Provenance::Kind::assumed},
          std::pair{"calibrated", Provenance::Kind::calibrated}})
      if (value[name].present()) {
        ++kinds;
        p.kind = kind;
        p.text = read_string(value[name]);
        require(value[name], !p.text.empty(), "a non-empty text: the source, the derivation or the reason");
      }
    if (kinds != 1)
      value.fail_value("exactly one of {measured: SOURCE}, {derived: HOW}, {assumed: WHY} or {calibrated: ON "
                       "WHAT, WITH WHAT INTERVAL}");
    if (const Cursor range = value["range"]; range.present()) {
      // The ends are --set values of the key (a sensitivity run loads the scenario with each), and a range
      // without its source is a guess: all three are required.
      for (const char* part : {"low", "high", "why"})
        require(range[part],
                range[part].present() && range[part].node().IsScalar() &&
                    !range[part].node().Scalar().empty(),
                "range: {low: VALUE, high: VALUE, why: WHERE THE RANGE COMES FROM}, each a non-empty "
                "scalar (a value as --set " +
                    path + "=VALUE takes it)");
      p.range_low = read_string(range["low"]);
      p.range_high = read_string(range["high"]);
      p.range_why = read_string(range["why"]);
      require(range["high"], p.range_low != p.range_high, "a high end other than the low one");
    }
    entries.push_back(p);
  }
  return entries;
}

} // namespace detail
} // namespace sonicsim

// The planning sections of a scenario: prices (costs:) and named what-if variants (variants:).
#include <set>

#include "sim/scenario/overrides.hpp"
#include "sim/scenario/scenario_error.hpp"
#include "sim/scenario/scenario_sections.hpp"
#include "sim/scenario/yaml_values.hpp"

namespace sonicsim::detail {
namespace {

double read_price_usd_per_hour(const Cursor& c) {
  const double usd = read_number(c);
  require(c, usd > 0.0, "a price > 0 in US dollars per hour, written as a plain number (e.g. 0.35)");
  return usd;
}

// A value as the --set machinery reads it: flow YAML, parsed back by apply_set_override.
std::string flow_yaml(const YAML::Node& node) {
  YAML::Emitter out;
  out.SetMapFormat(YAML::Flow);
  out.SetSeqFormat(YAML::Flow);
  out << node;
  return out.c_str();
}

std::string location(const std::string& source_name, const YAML::Mark& mark) {
  if (mark.is_null()) return source_name;
  return source_name + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
}

Variant read_variant(const Cursor& c, const std::string& name, const YAML::Node& key_node,
                     const std::string& source_name) {
  Variant variant;
  variant.name = name;
  variant.origin = location(source_name, key_node.Mark());
  if (c["description"].present()) variant.description = read_string(c["description"]);
  const Cursor overrides = c["overrides"];
  if (!overrides.present() || overrides.node().IsNull())
    c.fail("missing required key 'overrides'; expected a map {key.path: value} of what the variant changes");
  if (!overrides.node().IsMap() || overrides.node().size() == 0)
    overrides.fail_value("a non-empty map {key.path: value}, e.g. {platform.wan.rtt: \"50ms\"}");
  std::set<std::string> seen;
  for (const auto& entry : overrides.node()) {
    const Cursor key = overrides.key_cursor(entry.first);
    const std::string path = key.scalar("a key path, e.g. platform.wan.rtt");
    if (!seen.insert(path).second) key.fail("duplicate key path '" + path + "'; write each path once");
    // Variants are variations of the scenario, not of each other.
    if (path == "variants" || path.rfind("variants.", 0) == 0)
      key.fail("a variant cannot change variants; expected a key path of the scenario itself");
    try {
      validate_key_path(path, "variant '" + name + "'");
    } catch (const ScenarioError& e) {
      key.fail(e.message);
    }
    if (entry.second.IsNull()) key.fail("has no value; expected the value the variant sets");
    variant.overrides.push_back(path + "=" + flow_yaml(entry.second));
  }
  return variant;
}

} // namespace

Costs read_costs(const Cursor& c) {
  Costs costs;
  if (c["device_hour"].present()) {
    const Cursor hours = c["device_hour"];
    const YAML::Node entries = hours.node();
    for (const auto& entry : entries)
      costs.device_hour_usd[entry.first.Scalar()] = read_price_usd_per_hour(hours[entry.first.Scalar()]);
  }
  if (c["cpu_hour"].present()) costs.cpu_hour_usd = read_price_usd_per_hour(c["cpu_hour"]);
  if (c["pod_hour"].present()) costs.pod_hour_usd = read_price_usd_per_hour(c["pod_hour"]);
  return costs;
}

std::vector<Variant> read_variants(const Cursor& c, const std::string& source_name) {
  std::vector<Variant> variants;
  for (const auto& entry : c.node()) {
    const std::string name = entry.first.Scalar();
    if (name.empty() || name.find_first_of(" =/") != std::string::npos)
      c.key_cursor(entry.first)
          .fail("variant name '" + name + "': expected a plain name without spaces, '=' or '/'");
    variants.push_back(read_variant(c[name], name, entry.first, source_name));
  }
  return variants;
}

} // namespace sonicsim::detail

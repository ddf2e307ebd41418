#include "sim/scenario/scenario_loader.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/scenario/default_scenario.hpp"
#include "sim/scenario/provenance.hpp"
#include "sim/scenario/scenario_sections.hpp"
#include "sim/scenario/schema.hpp"
#include "sim/scenario/units.hpp"
#include "sim/scenario/yaml_values.hpp"
#include "sim/text/input_file.hpp"

namespace sonicsim {
namespace {

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names)
    out += (out.empty() ? "" : ", ") + name;
  return out;
}

// Every model a remote_inference module calls is deployed on known groups, with instances the groups can
// hold and a throughput curve for each device type it runs on; otherwise the simulator could not serve it.
void check_deployments(const Cursor& root, Scenario& s) {
  std::vector<std::string> group_names;
  for (const auto& g : s.platform.server_groups)
    group_names.push_back(g.name);
  for (auto& [name, model] : s.models) {
    const Cursor model_cursor = root["models"][name];
    const bool used = std::any_of(s.workload.pipeline.begin(), s.workload.pipeline.end(),
                                  [&](const Module& m) { return m.served() && m.model == name; });
    if (model.deploy.groups.empty()) {
      if (!used) continue;
      if (group_names.size() == 1) {
        model.deploy.groups = group_names; // the only group serves it
      } else {
        model_cursor.fail("missing key 'deploy': with several server groups (" + listed(group_names) +
                          ") each model says where it runs, e.g. deploy: {groups: [" + group_names.front() +
                          "]}");
      }
    }
    const bool on_node =
        std::any_of(model.deploy.groups.begin(), model.deploy.groups.end(), [&](const std::string& g) {
          const ServerGroup* group = s.platform.group(g);
          return group && group->on_client_nodes;
        });
    if (on_node) {
      // A job's fallback server is the one on its own node: no balancer has a choice to make.
      if (model.deploy.groups.size() != 1)
        model_cursor["deploy"]["groups"].fail(
            "a group on_client_nodes alone: a job calls the fallback server "
            "on its own node, or servers elsewhere, not both");
      if (model_cursor["deploy"]["load_balancer"].present())
        model_cursor["deploy"]["load_balancer"].fail(
            "no load_balancer for a model on a group on_client_nodes: each job calls its own node's server");
      model.deploy.load_balancer = LoadBalancer::client_node;
    }
    for (std::size_t i = 0; i < model.deploy.groups.size(); ++i) {
      const Cursor at =
          model_cursor["deploy"]["groups"].present() ? model_cursor["deploy"]["groups"][i] : model_cursor;
      const ServerGroup* group = s.platform.group(model.deploy.groups[i]);
      if (!group)
        at.fail("unknown server group '" + model.deploy.groups[i] +
                "'; expected one of platform.server_groups: " + listed(group_names));
      std::vector<std::string> types;
      for (const auto& entry : model.throughput_by_device)
        types.push_back(entry.first);
      for (const auto& instances : effective_instance_groups(model, *group)) {
        if (instances.kind == InstanceGroup::Kind::cpu) {
          if (!model.throughput_by_device.count(cpu_device_type))
            at.fail("model '" + name + "' has CPU instances on group '" + group->name +
                    "' but no throughput curve for CPU; expected models." + name +
                    ".throughput.CPU (the throughput of one CPU instance), or instance kind GPU (curves: " +
                    listed(types) + ")");
          continue;
        }
        if (group->devices_per_pod == 0)
          at.fail("model '" + name + "' has instances of kind GPU but group '" + group->name +
                  "' has no devices (devices.count 0); expected a group with devices, or instance_group "
                  "kind CPU");
        for (const int device : instances.devices)
          if (device >= group->devices_per_pod)
            at.fail("model '" + name + "' places instances on device " + std::to_string(device) +
                    " but the pods of group '" + group->name + "' have " +
                    std::to_string(group->devices_per_pod) + " device(s), numbered from 0");
        if (!model.throughput_by_device.count(group->device_type))
          at.fail("group '" + group->name + "' has devices of type '" + group->device_type + "' and model '" +
                  name +
                  "' has no throughput curve for it; expected one of the types under "
                  "models." +
                  name + ".throughput: " + listed(types));
      }
    }
  }
}

// Fallback servers on the client nodes (server groups on_client_nodes): one pod per worker node, on cores
// the jobs' threads leave free. A node cannot lend cores it does not have.
void place_client_node_servers(const Cursor& root, Scenario& s) {
  Platform& platform = s.platform;
  const int job_cores = platform.jobs_per_node * s.workload.threads;
  const Cursor node_cores = root["platform"]["node_cores"];
  if (platform.node_cores == 0) platform.node_cores = job_cores;
  if (platform.node_cores < job_cores)
    node_cores.fail("at least the cores its jobs' threads take: jobs_per_node (" +
                    std::to_string(platform.jobs_per_node) + ") x workload.threads (" +
                    std::to_string(s.workload.threads) + ") = " + std::to_string(job_cores));
  int free_cores = platform.node_cores - job_cores;
  const int nodes = (s.workload.jobs + platform.jobs_per_node - 1) / platform.jobs_per_node;
  std::int64_t pods = 0;
  for (auto& group : platform.server_groups) {
    if (group.on_client_nodes) {
      const Cursor cores = root["platform"]["server_groups"][group.name]["host_cores"];
      if (group.host_cores > free_cores)
        (cores.present() ? cores : root["platform"]["server_groups"][group.name])
            .fail("a fallback server needs " + std::to_string(group.host_cores) +
                  " cores on each client node and the node has " + std::to_string(free_cores) +
                  " free (platform.node_cores " + std::to_string(platform.node_cores) + " minus " +
                  std::to_string(job_cores) + " for the jobs' threads" +
                  (free_cores < platform.node_cores - job_cores ? ", minus the other fallback groups'" : "") +
                  "); expected host_cores <= " + std::to_string(free_cores) +
                  ", or more platform.node_cores");
      free_cores -= group.host_cores;
      group.pods = nodes;
    }
    pods += group.pods;
  }
  require(root["platform"]["server_groups"], pods <= 10'000,
          "at most 10,000 pods over all groups (a group on_client_nodes has one per worker node)");
}

namespace {

// The scenario name names the output directory (out/NAME): a plain file name, so that no name can write
// outside out/ or over another directory. Letters, digits, '.', '_', '+', '-', not starting with '.', at most
// 100.
bool is_safe_name(const std::string& name) {
  if (name.empty() || name.size() > 100 || name.front() == '.') return false;
  return std::all_of(name.begin(), name.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '_' || ch == '+' || ch == '-';
  });
}

// A name taken from the file's stem (no name: key) is made safe the same way: other characters become '_'.
std::string safe_name_from(std::string stem) {
  for (char& ch : stem)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '_' || ch == '+' || ch == '-'))
      ch = '_';
  if (stem.empty() || stem.front() == '.') stem.insert(stem.begin(), '_');
  return stem.substr(0, 100);
}

} // namespace

Scenario read_scenario(const Cursor& root, const std::string& source_name) {
  schema::check_document(root);
  Scenario s;
  s.source_file = source_name;
  if (root["name"].present()) {
    s.name = read_string(root["name"]);
    require(
        root["name"], is_safe_name(s.name),
        "a plain name for the output directory: letters, digits, '.', '_', '+', '-', not starting with '.', "
        "at most 100 characters");
  } else {
    s.name = safe_name_from(std::filesystem::path(source_name).stem().string());
  }
  if (root["description"].present()) s.description = read_string(root["description"]);
  if (root["seed"].present()) s.seed = read_seed(root["seed"]);
  s.platform = detail::read_platform(root["platform"]);
  s.models = detail::read_models(root["models"]);
  s.workload = detail::read_workload(root["workload"], s.models);
  s.output = detail::read_output(root["output"]);
  if (root["costs"].present()) s.costs = detail::read_costs(root["costs"]);
  if (root["variants"].present()) s.variants = detail::read_variants(root["variants"], source_name);
  if (root["provenance"].present()) s.provenance = detail::read_provenance(root["provenance"]);
  place_client_node_servers(root, s);
  check_deployments(root, s);
  detail::check_operations(root, s);
  return s;
}

} // namespace

namespace {

Scenario load_text(const std::string& yaml_text, const std::string& source_name,
                   const std::vector<const Variant*>& variants,
                   const std::vector<std::string>& set_overrides) {
  YAML::Node tree;
  try {
    tree = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    const bool known = !e.mark.is_null();
    throw ScenarioError(source_name, known ? e.mark.line + 1 : 0, known ? e.mark.column + 1 : 0, "",
                        "malformed YAML: " + e.msg);
  }
  // A scenario is a map of sections; anything else (a CSV or a plain text given as a scenario) is told as
  // such before any --set is applied to it.
  if (!tree.IsMap() && !tree.IsNull())
    throw ScenarioError(source_name, 1, 1, "",
                        std::string("the file is ") + (tree.IsSequence() ? "a list" : "a single value") +
                            ", not a scenario; expected a YAML map of sections (platform:, models:, "
                            "workload:, ...)");
  SourceInfo source{source_name, {}};
  try {
    // The variants first, in the order given, so that a --set on the command line wins over them.
    for (const Variant* variant : variants) {
      const std::string origin = "variant '" + variant->name + "' (" + variant->origin + ")";
      for (const auto& argument : variant->overrides) {
        try {
          apply_set_override(tree, argument, source);
        } catch (const ScenarioError& e) {
          throw ScenarioError(origin + ": " + argument, 0, 0, e.key_path, e.message);
        }
        source.overrides.back().origin = origin + ": " + argument;
      }
    }
    for (const auto& argument : set_overrides)
      apply_set_override(tree, argument, source);
    const Cursor root(source, tree);
    root.check_keys();
    Scenario scenario = read_scenario(root, source_name);
    for (const Variant* variant : variants)
      add_variant_assumptions(scenario, *variant);
    return scenario;
  } catch (const YAML::Exception& e) {
    // Every read goes through a Cursor; this only guards against a yaml-cpp surprise escaping unlabelled.
    const bool known = !e.mark.is_null();
    throw ScenarioError(source_name, known ? e.mark.line + 1 : 0, known ? e.mark.column + 1 : 0, "",
                        "unexpected YAML problem: " + e.msg);
  }
}

const Variant& find_variant(const Scenario& base, const std::string& name) {
  std::vector<std::string> names;
  for (const auto& variant : base.variants) {
    if (variant.name == name) return variant;
    names.push_back(variant.name);
  }
  throw ScenarioError("--variant " + name, 0, 0, "",
                      names.empty()
                          ? "no variant '" + name + "': " + base.source_file + " defines no variants"
                          : "no variant '" + name + "'" + schema::suggestion(name, names) + " in " +
                                base.source_file);
}

std::string read_text_file(const std::string& path) {
  try {
    return read_input_file(path);
  } catch (const std::runtime_error& e) {
    throw ScenarioError(path, 0, 0, "", std::string(e.what()) + "; expected a YAML scenario file");
  }
}

} // namespace

Scenario load_scenario_text(const std::string& yaml_text, const std::string& source_name,
                            const std::vector<std::string>& set_overrides) {
  return load_text(yaml_text, source_name, {}, set_overrides);
}

Scenario load_variant_text(const std::string& yaml_text, const std::string& source_name,
                           const std::vector<std::string>& variants,
                           const std::vector<std::string>& set_overrides) {
  if (variants.empty()) return load_text(yaml_text, source_name, {}, set_overrides);
  // The variant list is read from the file as written: the command line cannot add variants.
  const Scenario base = load_text(yaml_text, source_name, {}, {});
  std::vector<const Variant*> chosen;
  for (const auto& name : variants)
    chosen.push_back(&find_variant(base, name));
  return load_text(yaml_text, source_name, chosen, set_overrides);
}

Scenario load_variant_file(const std::string& path, const std::vector<std::string>& variants,
                           const std::vector<std::string>& set_overrides) {
  return load_variant_text(read_text_file(path), path, variants, set_overrides);
}

Scenario load_default_variant(const std::vector<std::string>& variants,
                              const std::vector<std::string>& set_overrides) {
  return load_variant_text(embedded_default_scenario_yaml(), embedded_default_source_name, variants,
                           set_overrides);
}

Scenario load_scenario_file(const std::string& path, const std::vector<std::string>& set_overrides) {
  return load_scenario_text(read_text_file(path), path, set_overrides);
}

Scenario load_default_scenario(const std::vector<std::string>& set_overrides) {
  return load_scenario_text(embedded_default_scenario_yaml(), embedded_default_source_name, set_overrides);
}

} // namespace sonicsim

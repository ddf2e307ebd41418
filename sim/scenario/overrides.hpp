// --set key.path=value: changes to the scenario's YAML tree, applied after reading the file and before any
// checking, so a value set on the command line is checked exactly like one written in the file.
#pragma once

#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "sim/scenario/scenario_error.hpp"
#include "sim/scenario/yaml_cursor.hpp"

namespace sonicsim {

// Splits a key path into its components. Components are separated by '.'; "pipeline[1]" is accepted as
// "pipeline.1".
std::vector<std::string> split_key_path(const std::string& path);

// Whether two key paths name the same value or one holds the other: "a.b" and "a.b.c" overlap, "a.b" and
// "a.bc" do not (what provenance an override or a fit replaces).
bool key_paths_overlap(const std::string& a, const std::string& b);

// Checks that a key path names a key of the scenario schema (whether or not a given file writes it). List
// elements are addressed by index or, for lists of named items (pipeline, cpu_mix), by name. Throws
// ScenarioError located at `origin` (default "--set PATH") with a suggestion for a misspelt component.
void validate_key_path(const std::string& path, const std::string& origin = "");

// Applies one "PATH=VALUE" argument to the tree. VALUE is parsed as YAML ("[4, 8]", "{dist: normal, ...}",
// "12ms"). Missing intermediate maps are created; list elements must exist. Records the override, with its
// path resolved to indices (workload.pipeline[1].max_batch), in `source` so later errors point at it.
void apply_set_override(YAML::Node& root, const std::string& argument, SourceInfo& source);

// An override sonicsim writes itself from another input (a --vary value, a data cell, a --fit bound) is
// applied as a --set; its errors are told where its value came from (`origin`, e.g. "--vary workload.jobs
// value 'a'"), never as a --set the user did not type. Throws InputError.
[[noreturn]] void rethrow_at_origin(const ScenarioError& error, const std::string& injected,
                                    const std::string& origin);

} // namespace sonicsim

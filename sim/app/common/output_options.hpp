// The options every command shares for what it prints: -q/--quiet (nothing on success; errors still go to
// stderr, and the exit code says how it went) and --json (the command's result as one JSON document on
// stdout, and nothing else there; progress stays on stderr).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdio>

namespace sonicsim {

// json: null for a command whose result is files only (it takes -q alone).
void add_output_options(CLI::App& command, bool& quiet, bool* json);

// printf to stdout when the command prints text (neither -q nor --json).
struct TextOutput {
  bool on = true;
  template <typename... Values> void operator()(const char* format, Values... values) const {
    if (on) std::printf(format, values...);
  }
};

} // namespace sonicsim

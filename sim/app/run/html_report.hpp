// `sonicsim report DIR...` and the --html option of the commands that write results: one self-contained HTML
// file (sim/report) drawn from whatever the directories hold.
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace sonicsim {

// Writes `out` from the result directories; throws InputError naming a directory that holds no result.
// Returns the number of charts drawn. `measured_cases`: validation cases whose measured curves are drawn over
// the sweeps.
std::size_t write_html_report(const std::vector<std::filesystem::path>& directories,
                              const std::filesystem::path& out,
                              const std::vector<std::string>& measured_cases = {});

// The --html flag of a command that writes results, and what it does: DIR/report.html from DIR, said unless
// quiet: on stdout, or on stderr when stdout holds the command's --json document (nothing else goes there).
void add_html_option(CLI::App& command, bool& html);
void write_html_report_if_asked(bool html, const std::filesystem::path& dir, bool quiet = false,
                                bool json = false);

} // namespace sonicsim

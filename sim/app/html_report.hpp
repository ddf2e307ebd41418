// `sonicsim report DIR...` and the --html option of the commands that write results: one self-contained HTML
// file (sim/report) drawn from whatever the directories hold.
#pragma once

#include <filesystem>
#include <vector>

namespace sonicsim {

// Writes `out` from the result directories; throws InputError naming a directory that holds no result.
// Returns the number of charts drawn.
std::size_t write_html_report(const std::vector<std::filesystem::path>& directories,
                              const std::filesystem::path& out);

} // namespace sonicsim

// What `sonicsim report` checks of a result directory before drawing it: every file it reads is whole and
// holds what the command wrote (figures are numbers, the columns drawn exist and hold numbers, every sweep
// point is a JSON document). A damaged file is an InputError naming the file and what is wrong, never a page
// drawn from it. Pure code.
#pragma once

#include <filesystem>

namespace sonicsim::report {

// summary.json (the fields the run section reads), events.csv and timeseries.csv when present.
void check_run_result(const std::filesystem::path& dir);
// sweep.csv (its key and the drawn columns) and every point file in points/.
void check_sweep_result(const std::filesystem::path& dir);

} // namespace sonicsim::report

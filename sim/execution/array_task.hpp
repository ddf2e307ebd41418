// The body of one array task of a cluster batch (what `sonicsim array-task TASKS INDEX` runs): simulation
// INDEX (from 1) of the batch file, rebuilt from its recipe, checked against the fingerprint the submitting
// command recorded, run, and its summary written to the batch's results folder. A task run again finds its
// result and does nothing.
#pragma once

#include <filesystem>

namespace sonicsim {

// Returns the exit code; throws InputError on a damaged batch file or an index out of range, and
// std::runtime_error when the rebuilt scenario is not the one the command made.
int run_array_task(const std::filesystem::path& tasks_file, int index);

} // namespace sonicsim

// The command line this process was started with, as typed (main() records it before parsing): what a Slurm
// job runs to repeat a command on the cluster, from the same working directory.
#pragma once

#include <string>
#include <vector>

namespace sonicsim {

void record_process_arguments(int argc, const char* const* argv);
// This command again, as a Slurm job runs it from the same working directory: the absolute path of this
// executable, the words typed, then `extra` (e.g. --slurm-collect, which wins over the --slurm typed).
std::vector<std::string> repeat_command(const std::vector<std::string>& extra);

// Another sonicsim command from this one, as a batch job runs it: the absolute path of this executable, the
// SimGrid settings this process was given (`simgrid_settings`: EngineCommandLine::user_settings(), each as
// --cfg KEY:VALUE, so the job simulates as this process does), then `subcommand`.
std::vector<std::string> own_command(const std::string& subcommand,
                                     const std::vector<std::string>& simgrid_settings);

} // namespace sonicsim

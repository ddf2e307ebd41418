// The shell, as every batch system's back-end and a command that repeats itself use it: running a command
// line, quoting words for one, and the path of this executable. Nothing here knows a batch system.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace sonicsim {

// Runs a shell command line; returns its exit status and what it printed (stdout and stderr together).
std::pair<int, std::string> run_shell(const std::string& line);

// A shell word: the text single-quoted where it needs to be.
std::string shell_quote(const std::string& text);
// Words joined into one shell command line.
std::string shell_command(const std::vector<std::string>& words);

// The absolute path of the running sonicsim executable.
std::string own_executable();

} // namespace sonicsim

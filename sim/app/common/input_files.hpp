// An input file or directory a command names on its command line, checked where the command runs and not by
// CLI11's ExistingFile: CLI11 validates a positional before it reports the arguments it did not expect, so a
// mistyped option's value (`--output DIR`) was reported as a missing input and the option itself not named.
#pragma once

#include <string>

namespace sonicsim {

// InputError "PATH: no such file; expected WHAT" (or "not a regular file; ...") unless PATH is a regular
// file.
void require_input_file(const std::string& path, const std::string& expected);

// The same for a directory.
void require_input_directory(const std::string& path, const std::string& expected);

// The same for a file or a directory.
void require_input_path(const std::string& path, const std::string& expected);

} // namespace sonicsim

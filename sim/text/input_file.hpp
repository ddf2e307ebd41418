// The one rule for every file an input names, on the command line or inside a scenario, a values file, a
// spec or a perf_analyzer folder: it is opened only when it is a regular file of at most
// max_input_file_bytes. A FIFO would block the command for ever and a device such as /dev/zero would be read
// until memory runs out; neither is opened, and the reason names the file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace sonicsim {

// 64 MiB: a hundred times the largest measured input sonicsim ships (docs/scenario_reference.md, "Files").
inline constexpr std::uintmax_t max_input_file_bytes = 64ull << 20;

// Why `path` may not be read ("no such file", "not a regular file (a FIFO)", "N bytes, more than ..."), or
// nothing when it may. Symbolic links are followed: a link to /dev/zero is a device.
std::optional<std::string> input_file_problem(const std::string& path,
                                              std::uintmax_t max_bytes = max_input_file_bytes);

// The bytes of a file that passes input_file_problem; std::runtime_error with the reason otherwise (callers
// wrap it in their own error, which names the key or the option).
std::string read_input_file(const std::string& path, std::uintmax_t max_bytes = max_input_file_bytes);

} // namespace sonicsim

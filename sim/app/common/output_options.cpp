#include "sim/app/common/output_options.hpp"

namespace sonicsim {

void add_output_options(CLI::App& command, bool& quiet, bool* json) {
  command.add_flag("-q,--quiet", quiet,
                   "Print nothing on success (errors still go to stderr; the exit code says how it went)");
  if (json)
    command.add_flag("--json", *json,
                     "Print the result as one JSON document on stdout, and nothing else there (progress "
                     "stays on stderr)");
}

} // namespace sonicsim

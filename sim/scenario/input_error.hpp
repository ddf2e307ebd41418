// An error in what the user asked for that is not in the scenario file itself (an option, an output
// directory). Like a ScenarioError it exits with code 2.
#pragma once

#include <stdexcept>

namespace sonicsim {

struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

} // namespace sonicsim

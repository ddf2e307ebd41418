// The built-in scenario, used when `sonicsim run` is given no file. It is the text of
// configs/protodune_2020_large_batch.yaml, embedded at build time (cmake/default_scenario.cpp.in).
#pragma once

namespace sonicsim {

const char* embedded_default_scenario_yaml();

} // namespace sonicsim

#include "sim/calibration/joint_unknowns.hpp"

#include "sim/calibration/joint_spec.hpp"
#include "sim/calibration/spec_cursor.hpp"
#include "sim/scenario/input_error.hpp"

#include <algorithm>

namespace sonicsim {

JointUnknown read_unknown(const Cursor& c) {
  spec_cursor::only_keys(
      c, {"key", "unit", "lower", "upper", "assumed", "set", "predictions", "why_range", "pinned_by"});
  JointUnknown u;
  u.key = read_string(c["key"]);
  if (c["unit"].present()) u.unit = read_string(c["unit"]);
  u.lower = read_number(c["lower"]);
  u.upper = read_number(c["upper"]);
  require(c["upper"], u.lower < u.upper, "upper above lower");
  u.assumed = read_number(c["assumed"]);
  require(c["assumed"], u.assumed >= u.lower && u.assumed <= u.upper, "a value within [lower, upper]");
  require(c["set"], c["set"].present(),
          "the --set expressions that put the value in a run, {} standing for it");
  u.sets = spec_cursor::strings(c["set"]);
  for (const auto& expression : u.sets)
    require(c["set"], expression.find("{}") != std::string::npos && expression.find('=') != std::string::npos,
            "--set expressions KEY=VALUE with {} (the value)");
  try {
    expand_set(u.sets, u.assumed);
  } catch (const InputError& error) {
    c["set"].fail(error.what());
  }
  u.predictions = spec_cursor::strings(c["predictions"]);
  require(c["predictions"], !u.predictions.empty(), "the ids of the predictions it acts on");
  // A range with no source is a guess: the spec says where each one comes from.
  u.why_range = read_string(c["why_range"]);
  if (c["pinned_by"].present()) u.pinned_by = read_string(c["pinned_by"]);
  return u;
}

bool unknown_acts_on(const JointUnknown& u, const JointPrediction& prediction) {
  const auto named = [&u](const std::string& id) {
    return !id.empty() && std::find(u.predictions.begin(), u.predictions.end(), id) != u.predictions.end();
  };
  return named(prediction.id) || named(prediction.reading_of);
}

} // namespace sonicsim

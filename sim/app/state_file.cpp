#include "sim/app/state_file.hpp"

namespace sonicsim {

std::string json_problem(const nlohmann::json::exception& error) {
  if (const auto* parse = dynamic_cast<const nlohmann::json::parse_error*>(&error))
    return "not complete JSON: it stops making sense at byte " + std::to_string(parse->byte);
  if (dynamic_cast<const nlohmann::json::out_of_range*>(&error)) return "a field it must hold is missing";
  if (dynamic_cast<const nlohmann::json::type_error*>(&error))
    return "a field holds the wrong kind of value (e.g. a list or text where a count belongs)";
  return "its content is not what sonicsim wrote";
}

} // namespace sonicsim

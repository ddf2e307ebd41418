#include "sim/app/sweep/sweep_point_files.hpp"
#include "sim/metrics/json_fields.hpp"

#include "sim/execution/scenario_recipe.hpp"
#include "sim/execution/state_file.hpp"

#include "sim/metrics/summary_json.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace sonicsim {

std::filesystem::path point_file_path(const std::filesystem::path& sweep_dir, std::size_t index,
                                      int replication) {
  char name[48];
  if (replication > 0)
    std::snprintf(name, sizeof name, "point_%06zu_r%d.json", index, replication);
  else
    std::snprintf(name, sizeof name, "point_%06zu.json", index);
  return sweep_dir / "points" / name;
}

void write_point_file(const std::filesystem::path& sweep_dir, const PointRecord& record) {
  nlohmann::ordered_json json{{"index", record.index}};
  if (record.replication > 0) json["replication"] = record.replication;
  json.update(nlohmann::ordered_json{{"overrides", record.overrides},
                                     {"fingerprint", record.fingerprint},
                                     {"wall_clock_s", record.wall_clock_s},
                                     {"summary", nlohmann::ordered_json::parse(record.summary_json)}});
  write_file_atomically(point_file_path(sweep_dir, record.index, record.replication),
                        json_text(json, 1) + "\n");
}

std::optional<RunSummary> read_point_file(const std::filesystem::path& sweep_dir, std::size_t index,
                                          int replication, const std::string& fingerprint) {
  const auto path = point_file_path(sweep_dir, index, replication);
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  // A damaged file (a full disk, an edit) is said so, by name, and counted as not done: --resume runs the
  // point again and replaces it.
  const auto not_done = [&](const std::string& why) -> std::optional<RunSummary> {
    std::fprintf(stderr, "sonicsim: warning: %s %s; counted as not done (--resume recomputes it)\n",
                 path.string().c_str(), why.c_str());
    return std::nullopt;
  };
  try {
    const auto json = nlohmann::ordered_json::parse(text.str());
    if (json.at("index").get<std::size_t>() != index || json.value("replication", 0) != replication)
      return not_done("is damaged (it holds another point)");
    if (json.at("fingerprint").get<std::string>() != fingerprint)
      return std::nullopt; // another sweep's point in the same directory: this sweep runs its own
    return run_summary_from_json(json.at("summary"));
  } catch (const nlohmann::json::exception& error) {
    return not_done("is damaged (" + json_problem(error) + ")");
  } catch (const std::exception& error) {
    return not_done("is damaged (" + std::string(error.what()) + ")");
  }
}

} // namespace sonicsim

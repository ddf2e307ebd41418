// The per-point result files of a sweep (DIR/points/point_NNNNNN.json). Each is written under a temporary
// name and renamed when complete, so an interrupted sweep keeps exactly its finished points, and --resume (or
// the merge of shards run elsewhere) can trust any file it finds whose fingerprint matches the point's
// scenario.
#pragma once

#include "sim/metrics/run_recorder.hpp"
#include "sim/scenario/scenario.hpp"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sonicsim {

// points/point_NNNNNN.json; a replication r > 0 of the point: points/point_NNNNNN_rR.json.
std::filesystem::path point_file_path(const std::filesystem::path& sweep_dir, std::size_t index,
                                      int replication = 0);

struct PointRecord {
  std::size_t index = 0;
  int replication = 0;
  std::vector<std::string> overrides;
  std::string fingerprint;
  double wall_clock_s = 0.0; // not in sweep.csv (it would break byte-identical output)
  std::string summary_json;  // run_summary_to_json, as the child process returned it
};

void write_point_file(const std::filesystem::path& sweep_dir, const PointRecord& record);
// The point's summary when its file exists, parses and carries `fingerprint`; otherwise none.
std::optional<RunSummary> read_point_file(const std::filesystem::path& sweep_dir, std::size_t index,
                                          int replication, const std::string& fingerprint);

} // namespace sonicsim

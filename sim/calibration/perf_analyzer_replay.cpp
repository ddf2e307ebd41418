#include "sim/calibration/perf_analyzer_replay.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace sonicsim::calibration {

std::vector<Replay> perf_analyzer_replays(const measurements::PerfAnalyzerImport& imported,
                                          const ReplaySettings& settings) {
  int largest = 0;
  for (const auto& file : imported.files)
    largest = std::max(largest, file.batch_size);
  for (const auto& point : imported.curve_points)
    largest = std::max(largest, static_cast<int>(std::ceil(point.first)));
  std::vector<Replay> replays;
  for (const auto& file : imported.files) {
    for (const auto& row : file.rows) {
      Replay replay;
      replay.file = std::filesystem::path(file.path).filename().string();
      replay.batch_size = file.batch_size;
      replay.concurrency = row.concurrency;
      replay.measured_inferences_per_s = row.inferences_per_s;
      Scenario& s = replay.scenario;
      s.name = "perf_analyzer_replay";
      s.source_file = file.path;
      s.seed = settings.seed;
      // localhost: links far faster than any request needs, no TCP window cap; the measured network time as
      // the round trip.
      s.platform.nic_mix = {NicClass{400e9, 1.0}};
      s.platform.site_switch.bandwidth_bps = 1e12;
      s.platform.wan.bandwidth_bps = 1e12;
      s.platform.wan.rtt_s = row.network_s;
      s.platform.network.tcp_window_bytes = 0.0;
      ServerGroup group;
      group.name = "local";
      group.device_type = settings.device_type;
      group.devices_per_pod = 1;
      group.host_cores = settings.host_cores;
      group.nic_bandwidth_bps = 1e12;
      s.platform.server_groups = {group};
      Model model;
      model.name = "measured";
      model.input_bytes_per_inference = settings.input_bytes_per_inference;
      model.output_bytes_per_inference = settings.output_bytes_per_inference;
      model.throughput_by_device.emplace(settings.device_type, ThroughputCurve(imported.curve_points, 0.0));
      model.triton.max_batch_size = settings.max_batch_size > 0 ? settings.max_batch_size : largest;
      model.triton.instance_groups = {InstanceGroup{settings.instances, InstanceGroup::Kind::gpu, {}}};
      model.triton.dynamic_batching.enabled = settings.dynamic_batching;
      model.deploy.groups = {"local"};
      model.compute_input = {imported.compute_input.per_request_s, imported.compute_input.per_byte_s};
      model.compute_output = {imported.compute_output.per_request_s, imported.compute_output.per_byte_s};
      s.models.emplace(model.name, model);
      Module client;
      client.name = "client";
      client.type = Module::Type::cpu;
      client.duration_s.mean = row.client_send_s + row.client_recv_s;
      Module request;
      request.name = "request";
      request.type = Module::Type::remote_inference;
      request.model = model.name;
      request.inferences.mean = file.batch_size;
      request.max_batch = file.batch_size;
      s.workload.jobs = std::max(1, row.concurrency);
      s.workload.events_per_job = settings.requests_per_job;
      s.workload.warmup_events = settings.requests_per_job / 10;
      s.workload.pipeline = {client, request};
      s.output.timeseries_interval_s = 1.0;
      replays.push_back(std::move(replay));
    }
  }
  return replays;
}

} // namespace sonicsim::calibration

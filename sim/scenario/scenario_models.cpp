#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "sim/measurements/measurement_error.hpp"
#include "sim/measurements/perf_analyzer.hpp"
#include "sim/measurements/triton_config.hpp"
#include "sim/scenario/scenario_sections.hpp"
#include "sim/scenario/yaml_values.hpp"

namespace sonicsim::detail {
namespace {

std::string number_text(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

// The files a perf_analyzer key names: a file, a directory (every .csv in it, by name), or a list of files;
// relative paths are relative to the scenario file's folder.
std::vector<std::string> perf_analyzer_paths(const Cursor& c) {
  namespace fs = std::filesystem;
  const fs::path base =
      c.source_name().front() == '<' ? fs::current_path() : fs::path(c.source_name()).parent_path();
  std::vector<std::string> paths;
  const auto add = [&](const Cursor& entry) {
    const fs::path path = base / read_string(entry);
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<std::string> found;
      for (const auto& file : fs::directory_iterator(path, ec))
        if (file.path().extension() == ".csv") found.push_back(file.path().string());
      std::sort(found.begin(), found.end());
      require(entry, !found.empty(),
              "a folder with perf_analyzer .csv files (" + path.string() + " has none)");
      paths.insert(paths.end(), found.begin(), found.end());
    } else {
      require(entry, fs::is_regular_file(path, ec),
              "a perf_analyzer .csv file or a folder of them (" + path.string() +
                  " does not exist; a relative path is read from the scenario file's folder, so a scenario "
                  "copied elsewhere names its measurement folders from its new place)");
      paths.push_back(path.string());
    }
  };
  if (c.node().IsSequence()) {
    require(c, c.node().size() > 0, "a non-empty list of perf_analyzer files");
    for (std::size_t i = 0; i < c.node().size(); ++i)
      add(c[i]);
  } else {
    add(c);
  }
  return paths;
}

measurements::DeviceTimeMapping read_perf_analyzer_reading(const Cursor& c) {
  if (!c.present()) return measurements::DeviceTimeMapping::compute_infer;
  return read_choice(c, {"compute-infer", "merged-async"}) == "merged-async"
             ? measurements::DeviceTimeMapping::merged_async
             : measurements::DeviceTimeMapping::compute_infer;
}

// The curve's throughputs times `scale` (throughput.<device>.scale): a production server's capacity against
// the benchmark the curve was measured on (perf_analyzer on localhost, say); 1, as measured.
ThroughputCurve scaled_curve(const Cursor& c, std::vector<ThroughputCurve::Point> points, double overhead_s) {
  if (const Cursor scale = c["scale"]; scale.present()) {
    const double factor = read_number(scale);
    require(scale, factor >= 0.01 && factor <= 100.0,
            "a factor between 0.01 and 100 on the curve's throughputs (1: as measured)");
    for (auto& point : points)
      point.second *= factor;
  }
  return ThroughputCurve(std::move(points), overhead_s);
}

ThroughputCurve read_curve(const Cursor& c, std::vector<std::string>& perf_analyzer_files,
                           measurements::DeviceTimeMapping& reading) {
  std::vector<ThroughputCurve::Point> curve_points;
  if (c["perf_analyzer_reading"].present() && !c["perf_analyzer"].present())
    c["perf_analyzer_reading"].fail(
        "a reading of perf_analyzer files, but the curve has no perf_analyzer key");
  if (const Cursor files = c["perf_analyzer"]; files.present()) {
    // The device curve of perf_analyzer measurements: batch / device time per file, read as
    // perf_analyzer_reading says (sim/measurements/perf_analyzer.hpp).
    if (c["points"].present()) c["points"].fail("either points or perf_analyzer, not both");
    perf_analyzer_files = perf_analyzer_paths(files);
    reading = read_perf_analyzer_reading(c["perf_analyzer_reading"]);
    try {
      const auto imported =
          measurements::import_perf_analyzer(perf_analyzer_files, std::nullopt, 0.0, 0.0, reading);
      curve_points = imported.curve_points;
    } catch (const measurements::MeasurementError& e) {
      files.fail(std::string("cannot import: ") + e.what());
    }
    double overhead_s = 0.0;
    if (c["overhead"].present()) {
      overhead_s = read_duration_s(c["overhead"]);
      require(c["overhead"], overhead_s >= 0.0, "an overhead >= 0, e.g. \"0ms\"");
    }
    return scaled_curve(c, std::move(curve_points), overhead_s);
  }
  const Cursor points = c["points"];
  const std::string shape = "a non-empty list of [batch size, inferences per second] pairs, e.g. [[1, 600], "
                            "[64, 9000]]";
  if (!points.present()) points.fail("missing required key; expected " + shape);
  require(points, points.node().IsSequence() && points.node().size() > 0, shape);
  for (std::size_t i = 0; i < points.node().size(); ++i) {
    const Cursor point = points[i];
    require(point, point.node().IsSequence() && point.node().size() == 2,
            "a pair [batch size, inferences per second]");
    const double batch = read_number(point[0]);
    const double throughput = read_number(point[1]);
    require(point[0], batch >= 1.0, "a batch size >= 1");
    if (!curve_points.empty())
      require(point[0], batch > curve_points.back().first,
              "a batch size above the previous point's (" + number_text(curve_points.back().first) +
                  "): points are sorted by strictly increasing batch size");
    require(point[1], throughput > 0.0, "a throughput > 0 inferences per second");
    curve_points.emplace_back(batch, throughput);
  }
  double overhead_s = 0.0; // default: no fixed cost per batch
  if (c["overhead"].present()) {
    overhead_s = read_duration_s(c["overhead"]);
    require(c["overhead"], overhead_s >= 0.0, "an overhead >= 0, e.g. \"0ms\"");
  }
  return scaled_curve(c, std::move(curve_points), overhead_s);
}

QueuePolicy read_queue_policy(const Cursor& c) {
  QueuePolicy q;
  // 0 means "no limit" in Triton's own configuration, so it maps to an empty optional here.
  if (c["max_queue_size"].present()) {
    const int size = read_int(c["max_queue_size"], 0);
    if (size > 0) q.max_queue_size = size;
  }
  if (c["timeout"].present()) {
    const double timeout_s = read_duration_s(c["timeout"]);
    require(c["timeout"], timeout_s >= 0.0, "a timeout >= 0 (0 = none)");
    if (timeout_s > 0.0) q.timeout_s = timeout_s;
  }
  return q;
}

// Triton turns the dynamic batcher on by the section's presence; `enabled: false` (a sonicsim addition, so
// that --set and variants can turn it off) keeps the section's settings but runs without it.
DynamicBatching read_dynamic_batching(const Cursor& c, int max_batch_size) {
  DynamicBatching d;
  d.enabled = true;
  if (c.node().IsNull()) return d; // "dynamic_batching:" or "dynamic_batching: {}" alone
  if (c["enabled"].present()) d.enabled = read_bool(c["enabled"]);
  if (const Cursor sizes = c["preferred_batch_size"]; sizes.present()) {
    require(sizes, sizes.node().IsSequence(), "a list of batch sizes, e.g. [4, 8] (or [] for none)");
    for (std::size_t i = 0; i < sizes.node().size(); ++i) {
      const int size = read_int(sizes[i], 1);
      require(sizes[i], size <= max_batch_size,
              "a preferred batch size no larger than triton.max_batch_size (" +
                  std::to_string(max_batch_size) + ")");
      d.preferred_batch_sizes.push_back(size);
    }
  }
  if (c["max_queue_delay"].present()) {
    d.max_queue_delay_s = read_duration_s(c["max_queue_delay"]);
    require(c["max_queue_delay"], d.max_queue_delay_s >= 0.0, "a delay >= 0, e.g. \"100us\"");
  }
  if (c["default_queue_policy"].present()) d.queue_policy = read_queue_policy(c["default_queue_policy"]);
  return d;
}

InstanceGroup read_instance_group(const Cursor& c) {
  InstanceGroup g;
  // 64 instances of one model on one device is beyond any Triton deployment.
  if (c["count"].present()) g.count = read_int(c["count"], 1, 64);
  if (c["kind"].present()) {
    const std::string kind = read_choice(c["kind"], {"GPU", "CPU", "KIND_GPU", "KIND_CPU"});
    g.kind = kind == "CPU" || kind == "KIND_CPU" ? InstanceGroup::Kind::cpu : InstanceGroup::Kind::gpu;
  }
  if (const Cursor gpus = c["gpus"]; gpus.present()) {
    require(gpus, gpus.node().IsSequence() && gpus.node().size() > 0,
            "a non-empty list of device indices within a pod, e.g. [0, 1]");
    require(gpus, g.kind == InstanceGroup::Kind::gpu,
            "no gpus for kind CPU (CPU instances run on host cores)");
    for (std::size_t i = 0; i < gpus.node().size(); ++i)
      g.devices.push_back(read_int(gpus[i], 0, 1'023));
  }
  return g;
}

TritonSettings read_triton(const Cursor& c) {
  TritonSettings t;
  if (!c.present())
    c.fail("missing required section; expected a map with at least max_batch_size, e.g. "
           "triton: {max_batch_size: 16384}");
  t.max_batch_size = read_int(c["max_batch_size"], 1);
  if (const Cursor groups = c["instance_group"]; groups.present()) {
    require(groups, groups.node().IsSequence() && groups.node().size() > 0,
            "a non-empty list such as [{count: 1, kind: GPU}]");
    for (std::size_t i = 0; i < groups.node().size(); ++i)
      t.instance_groups.push_back(read_instance_group(groups[i]));
  }
  if (c["dynamic_batching"].present())
    t.dynamic_batching = read_dynamic_batching(c["dynamic_batching"], t.max_batch_size);
  return t;
}

// A host cost fitted to the perf_analyzer files of one of the model's curves (compute_input: {perf_analyzer:
// T4}): per request + per byte of the model's inputs (or outputs), as `sonicsim import perf-analyzer` fits
// it.
HostCost host_cost_from_perf_analyzer(const Cursor& c, const Model& m,
                                      measurements::HostCostFit measurements::PerfAnalyzerImport::*which) {
  const std::string device = read_string(c);
  const auto files = m.perf_analyzer_files.find(device);
  if (files == m.perf_analyzer_files.end())
    c.fail("a device type whose throughput curve is read from perf_analyzer files (throughput." + device +
           ".perf_analyzer)");
  try {
    const auto imported =
        measurements::import_perf_analyzer(files->second, std::nullopt, m.input_bytes_per_inference,
                                           m.output_bytes_per_inference, m.perf_analyzer_readings.at(device));
    const auto& fit = imported.*which;
    return HostCost{fit.per_request_s, fit.per_byte_s};
  } catch (const measurements::MeasurementError& e) {
    c.fail(std::string("cannot import: ") + e.what());
  }
  return {};
}

// `fitted_to`: the device whose perf_analyzer files gave the cost, when they did.
HostCost read_host_cost(const Cursor& c, const Model& m,
                        measurements::HostCostFit measurements::PerfAnalyzerImport::*which,
                        std::string& fitted_to) {
  if (c["perf_analyzer"].present()) {
    if (c["per_request"].present() || c["per_byte"].present())
      c["perf_analyzer"].fail("either perf_analyzer or per_request/per_byte, not both");
    fitted_to = read_string(c["perf_analyzer"]);
    return host_cost_from_perf_analyzer(c["perf_analyzer"], m, which);
  }
  HostCost cost;
  if (c["per_request"].present()) {
    cost.per_request_s = read_duration_s(c["per_request"]);
    require(c["per_request"], cost.per_request_s >= 0.0, "a duration >= 0, e.g. \"50us\"");
  }
  if (c["per_byte"].present()) {
    cost.per_byte_s = read_duration_s(c["per_byte"]);
    // 1 us per byte is 1 MB/s: slower than any host copies memory.
    require(c["per_byte"], cost.per_byte_s >= 0.0 && cost.per_byte_s <= 1e-6,
            "a duration per byte between 0 and 1us, e.g. \"0.2ns\" (5 GB/s)");
  }
  return cost;
}

Deployment read_deployment(const Cursor& c) {
  Deployment d;
  if (const Cursor groups = c["groups"]; groups.present()) {
    require(groups, groups.node().IsSequence() && groups.node().size() > 0,
            "a non-empty list of server group names, e.g. [t4_pods]");
    for (std::size_t i = 0; i < groups.node().size(); ++i) {
      const std::string name = read_string(groups[i]);
      require(groups[i], std::find(d.groups.begin(), d.groups.end(), name) == d.groups.end(),
              "each group once");
      d.groups.push_back(name);
    }
  }
  if (c["load_balancer"].present()) {
    const std::string policy =
        read_choice(c["load_balancer"], {"random", "round_robin", "least_connections"});
    d.load_balancer = policy == "round_robin"         ? LoadBalancer::round_robin
                      : policy == "least_connections" ? LoadBalancer::least_connections
                                                      : LoadBalancer::random;
  }
  return d;
}

// A model's Triton settings from its config.pbtxt (triton_config: PATH, relative to the scenario file), as
// the YAML triton section would give them; the bytes per inference when its dims fix them.
TritonSettings triton_from_config(const Cursor& c, const measurements::TritonConfig& config) {
  TritonSettings t;
  // max_batch_size 0: Triton's "no batching", each request one inference.
  t.max_batch_size = std::max(1, config.max_batch_size);
  for (const auto& group : config.instance_groups)
    t.instance_groups.push_back(InstanceGroup{
        group.count, group.cpu ? InstanceGroup::Kind::cpu : InstanceGroup::Kind::gpu, group.gpus});
  t.dynamic_batching.enabled = config.dynamic_batching;
  for (const int size : config.preferred_batch_sizes) {
    require(c, size >= 1 && size <= t.max_batch_size,
            "a config whose preferred_batch_size values are within 1..max_batch_size (" +
                std::to_string(t.max_batch_size) + "); it has " + std::to_string(size));
    t.dynamic_batching.preferred_batch_sizes.push_back(size);
  }
  t.dynamic_batching.max_queue_delay_s = config.max_queue_delay_s;
  t.dynamic_batching.queue_policy.max_queue_size = config.max_queue_size;
  t.dynamic_batching.queue_policy.timeout_s = config.timeout_s;
  return t;
}

// Bytes per inference: written in the YAML, or fixed by the config's dims (both: they must agree).
double read_bytes_per_inference(const Cursor& c, const std::optional<double>& from_config, bool input) {
  const std::string key = input ? "input_bytes_per_inference" : "output_bytes_per_inference";
  if (!c[key].present() && from_config) return *from_config;
  const double bytes = read_bytes(c[key]);
  // Inputs per inference are kilobytes (a 48x48 patch: 9 kB; a jet: a few kB); 1 GB is a typo.
  if (input)
    require(c[key], bytes > 0.0 && bytes <= 1e9, "a size > 0 and at most 1GB, e.g. \"9216B\"");
  else
    require(c[key], bytes >= 0.0 && bytes <= 1e9, "a size between 0 and 1GB, e.g. \"16B\"");
  if (from_config && std::fabs(bytes - *from_config) > 1e-9 * *from_config)
    c[key].fail("the model's triton_config fixes " + number_text(*from_config) +
                " bytes per inference from its dims and data types; expected the same, or leave the key out");
  return bytes;
}

Model read_model(const Cursor& c, const std::string& name) {
  Model m;
  m.name = name;
  std::optional<measurements::TritonConfig> config;
  if (const Cursor file = c["triton_config"]; file.present()) {
    namespace fs = std::filesystem;
    const fs::path base =
        c.source_name().front() == '<' ? fs::current_path() : fs::path(c.source_name()).parent_path();
    m.triton_config_file = (base / read_string(file)).string();
    try {
      config = measurements::read_triton_config(m.triton_config_file);
    } catch (const measurements::MeasurementError& e) {
      file.fail(std::string("cannot read the Triton config: ") + e.what());
    }
    if (c["triton"].present())
      c["triton"].fail("the model has a triton_config: write its Triton settings there, or here, not both");
    m.triton_config_notes = config->notes;
  }
  m.input_bytes_per_inference =
      read_bytes_per_inference(c, config ? config->input_bytes_per_inference : std::nullopt, true);
  m.output_bytes_per_inference =
      read_bytes_per_inference(c, config ? config->output_bytes_per_inference : std::nullopt, false);
  const Cursor throughput = c["throughput"];
  if (!throughput.present() || throughput.node().size() == 0)
    throughput.fail(
        "expected at least one device type with a throughput curve, e.g. throughput: {T4: {points: "
        "[[1, 600], [64, 9000]]}}");
  for (const auto& entry : throughput.node()) {
    const std::string gpu = entry.first.Scalar();
    std::vector<std::string> files;
    measurements::DeviceTimeMapping reading = measurements::DeviceTimeMapping::compute_infer;
    m.throughput_by_device.insert_or_assign(gpu, read_curve(throughput[gpu], files, reading));
    if (throughput[gpu]["scale"].present()) m.throughput_scale[gpu] = read_number(throughput[gpu]["scale"]);
    if (!files.empty()) {
      m.perf_analyzer_files[gpu] = files;
      m.perf_analyzer_readings[gpu] = reading;
    }
  }
  m.triton = config ? triton_from_config(c["triton_config"], *config) : read_triton(c["triton"]);
  if (c["deploy"].present()) m.deploy = read_deployment(c["deploy"]);
  using measurements::PerfAnalyzerImport;
  if (c["compute_input"].present())
    m.compute_input = read_host_cost(c["compute_input"], m, &PerfAnalyzerImport::compute_input,
                                     m.compute_input_perf_analyzer);
  if (c["compute_output"].present())
    m.compute_output = read_host_cost(c["compute_output"], m, &PerfAnalyzerImport::compute_output,
                                      m.compute_output_perf_analyzer);
  if (c["client_call"].present())
    m.client_call =
        read_host_cost(c["client_call"], m, &PerfAnalyzerImport::client_call, m.client_call_perf_analyzer);
  return m;
}

} // namespace

std::map<std::string, Model> read_models(const Cursor& c) {
  std::map<std::string, Model> models;
  if (!c.present()) return models;
  for (const auto& entry : c.node()) {
    const std::string name = entry.first.Scalar();
    models[name] = read_model(c[name], name);
  }
  return models;
}

} // namespace sonicsim::detail

#include <sstream>

#include "sim/scenario/scenario_sections.hpp"
#include "sim/scenario/yaml_values.hpp"

namespace sonicsim::detail {
namespace {

std::string number_text(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

ThroughputCurve read_curve(const Cursor& c) {
  std::vector<ThroughputCurve::Point> curve_points;
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
  return ThroughputCurve(std::move(curve_points), overhead_s);
}

DynamicBatching read_dynamic_batching(const Cursor& c, int max_batch_size) {
  DynamicBatching d;
  if (c["enabled"].present()) d.enabled = read_bool(c["enabled"]);
  if (const Cursor sizes = c["preferred_batch_sizes"]; sizes.present()) {
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
  return d;
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

TritonSettings read_triton(const Cursor& c) {
  TritonSettings t;
  if (!c.present())
    c.fail("missing required section; expected a map with at least max_batch_size, e.g. "
           "triton: {max_batch_size: 16384}");
  t.max_batch_size = read_int(c["max_batch_size"], 1);
  if (c["instances_per_gpu"].present()) t.instances_per_gpu = read_int(c["instances_per_gpu"], 1);
  if (c["dynamic_batching"].present())
    t.dynamic_batching = read_dynamic_batching(c["dynamic_batching"], t.max_batch_size);
  if (c["queue_policy"].present()) t.queue_policy = read_queue_policy(c["queue_policy"]);
  return t;
}

Model read_model(const Cursor& c, const std::string& name) {
  Model m;
  m.name = name;
  m.input_bytes_per_inference = read_bytes(c["input_bytes_per_inference"]);
  // Inputs per inference are kilobytes (a 48x48 patch: 9 kB; a jet: a few kB); 1 GB is a typo.
  require(c["input_bytes_per_inference"],
          m.input_bytes_per_inference > 0.0 && m.input_bytes_per_inference <= 1e9,
          "a size > 0 and at most 1GB, e.g. \"9216B\"");
  m.output_bytes_per_inference = read_bytes(c["output_bytes_per_inference"]);
  require(c["output_bytes_per_inference"],
          m.output_bytes_per_inference >= 0.0 && m.output_bytes_per_inference <= 1e9,
          "a size between 0 and 1GB, e.g. \"16B\"");
  const Cursor throughput = c["throughput"];
  if (!throughput.present() || throughput.node().size() == 0)
    throughput.fail("expected at least one GPU type with a throughput curve, e.g. throughput: {T4: {points: "
                    "[[1, 600], [64, 9000]]}}");
  for (const auto& entry : throughput.node()) {
    const std::string gpu = entry.first.Scalar();
    m.throughput_by_gpu.insert_or_assign(gpu, read_curve(throughput[gpu]));
  }
  m.triton = read_triton(c["triton"]);
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

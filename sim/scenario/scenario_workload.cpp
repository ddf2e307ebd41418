#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

#include "sim/scenario/scenario_sections.hpp"
#include "sim/scenario/schema.hpp"
#include "sim/scenario/yaml_values.hpp"

namespace sonicsim::detail {
namespace {

ClientSettings read_client(const Cursor& c) {
  ClientSettings client;
  // A hundred retries is beyond any client library's setting (SonicTriton's default is 3).
  if (c["retries"].present()) client.retries = read_int(c["retries"], 0, 100);
  if (c["retry_backoff"].present()) {
    client.retry_backoff_s = read_duration_s(c["retry_backoff"]);
    require(c["retry_backoff"], client.retry_backoff_s >= 0.0, "a duration >= 0, e.g. \"1s\"");
  }
  if (c["mode"].present()) client.asynchronous = read_choice(c["mode"], {"sync", "async"}) == "async";
  if (c["max_in_flight"].present()) {
    // Each request in flight is a sender with its own stack: a thousand per job is beyond any client library.
    client.max_in_flight = read_int(c["max_in_flight"], 1, 1'000);
    // A synchronous client has exactly one request in flight; another number would be silently ignored.
    if (!client.asynchronous && client.max_in_flight != 1)
      c["max_in_flight"].fail(
          "got " + c["max_in_flight"].shown() +
          " with mode: sync; a synchronous client has one request in flight: set mode: async "
          "or remove max_in_flight");
  }
  return read_client_operations(c, client);
}

double read_non_negative_duration(const Cursor& c) {
  const double s = read_duration_s(c);
  require(c, s >= 0.0, "a duration >= 0");
  return s;
}

void read_remote(const Cursor& c, Module& m, const std::map<std::string, Model>& models) {
  m.model = read_string(c["model"]);
  const auto model = models.find(m.model);
  if (model == models.end()) {
    std::vector<std::string> names;
    for (const auto& entry : models)
      names.push_back(entry.first);
    c["model"].fail("unknown model '" + m.model + "'" +
                    (names.empty() ? std::string(" (no models are defined under 'models')")
                                   : schema::suggestion(m.model, names)));
  }
  // LArSoft sends 3 planes, CMS a request per jet: 10,000 groups is far beyond any workflow, and each job
  // keeps a weight per group.
  if (c["groups"].present()) m.groups = read_int(c["groups"], 1, 10'000);
  if (c["group_spread"].present()) {
    m.group_spread = read_number(c["group_spread"]);
    // Weights are exp(sigma z): with sigma 10 one group already holds nearly everything; above a few hundred
    // exp overflows and the inferences are lost.
    require(c["group_spread"], m.group_spread >= 0.0 && m.group_spread <= 10.0,
            "a lognormal sigma between 0 (equal groups) and 10");
  }
  m.max_batch = read_int(c["max_batch"], 1);
  if (c["compression_ratio"].present()) {
    m.compression_ratio = read_number(c["compression_ratio"]);
    require(c["compression_ratio"], m.compression_ratio >= 1.0, "a ratio >= 1 (input bytes / bytes sent)");
  }
  if (c["compression_time_per_byte"].present()) {
    m.compression_time_per_byte_s = read_duration_s(c["compression_time_per_byte"]);
    require(c["compression_time_per_byte"], m.compression_time_per_byte_s >= 0.0,
            "a CPU time per input byte >= 0, e.g. \"2ns\"");
  }
  if (c["direct"].present()) m.direct_s = read_distribution(c["direct"], Quantity::duration);
  if (c["inference"].present()) {
    m.run_direct = read_choice(c["inference"], {"service", "direct"}) == "direct";
    if (m.run_direct && !m.direct_s)
      c["inference"].fail("direct inference needs the module's 'direct' time (its model's inference time per "
                          "event on the job's CPU); expected a 'direct' key, or inference: service");
  }
  // Triton rejects a request larger than max_batch_size, so every full chunk would fail.
  const int server_max = model->second.triton.max_batch_size;
  require(c["max_batch"], m.max_batch <= server_max,
          "at most the model's triton.max_batch_size (" + std::to_string(server_max) +
              "): Triton rejects larger requests");
  // Every request is a network round trip and an entry in the event's request list: 100,000 per event is
  // already 20 minutes of round trips at 12 ms (ProtoDUNE sends 4 to 235 per event).
  constexpr double max_requests_per_event = 1e5;
  const double requests = m.inferences.plausible_max() / m.max_batch + m.groups;
  if (requests > max_requests_per_event)
    c["inferences"].fail("an event could send " + std::to_string(static_cast<long long>(requests)) +
                         " requests (inferences up to " +
                         std::to_string(static_cast<long long>(m.inferences.plausible_max())) +
                         " / max_batch " + std::to_string(m.max_batch) +
                         "); expected at most 100,000 requests per event");
}

Module read_module(const Cursor& c, const std::map<std::string, Model>& models) {
  Module m;
  m.name = read_string(c["name"]);
  const std::string type = read_choice(c["type"], schema::module_types());
  if (type == "cpu") {
    m.type = Module::Type::cpu;
    m.duration_s = read_distribution(c["duration"], Quantity::duration);
    return m;
  }
  m.type = type == "remote_inference" ? Module::Type::remote_inference : Module::Type::local_inference;
  if (c["preprocess"].present()) m.preprocess_s = read_distribution(c["preprocess"], Quantity::duration);
  m.inferences = read_distribution(c["inferences"], Quantity::count);
  if (m.type == Module::Type::remote_inference) {
    read_remote(c, m, models);
  } else {
    m.local_time_per_inference_s = read_duration_s(c["time_per_inference"]);
    require(c["time_per_inference"], m.local_time_per_inference_s > 0.0, "a duration > 0, e.g. \"3.873ms\"");
  }
  return m;
}

std::vector<Module> read_pipeline(const Cursor& c, const std::map<std::string, Model>& models) {
  const std::string shape = "a non-empty list of modules ({name, type, ...})";
  if (!c.present()) c.fail("missing required key; expected " + shape);
  require(c, c.node().IsSequence() && c.node().size() > 0, shape);
  std::vector<Module> pipeline;
  std::set<std::string> names;
  for (std::size_t i = 0; i < c.node().size(); ++i) {
    pipeline.push_back(read_module(c[i], models));
    // Names address modules in --set paths and label the outputs, so they must be unique.
    if (!names.insert(pipeline.back().name).second)
      c[i]["name"].fail("duplicate module name '" + pipeline.back().name + "'; expected a unique name");
  }
  return pipeline;
}

} // namespace

Workload read_workload(const Cursor& c, const std::map<std::string, Model>& models) {
  if (!c.present()) c.fail("missing required section; expected a map with at least jobs and pipeline");
  Workload w;
  // A million concurrent jobs is ten times the largest grid campaign.
  w.jobs = read_int(c["jobs"], 1, 1'000'000);
  if (c["events_per_job"].present()) w.events_per_job = read_int(c["events_per_job"], 1);
  // Bounds before work: 10^7 events in all is 150 times the largest shipped study (2,500 jobs x 24 events)
  // and minutes of simulation; more is a typo that would run for hours.
  constexpr double max_total_events = 1e7;
  if (static_cast<double>(w.jobs) * w.events_per_job > max_total_events)
    (c["events_per_job"].present() ? c["events_per_job"] : c["jobs"])
        .fail("got " + std::to_string(w.jobs) + " jobs x " + std::to_string(w.events_per_job) +
              " events per job; expected at most 10000000 events in all (a campaign's total_events is not "
              "bound "
              "by this)");
  // 256 threads is more than any grid job uses (CMS runs 4 or 8); each is an actor with its own stack.
  if (c["threads"].present()) w.threads = read_int(c["threads"], 1, 256);
  if (c["warmup_events"].present()) {
    w.warmup_events = read_int(c["warmup_events"], 0);
    require(c["warmup_events"], w.warmup_events < w.events_per_job,
            "fewer warm-up events than events_per_job (" + std::to_string(w.events_per_job) +
                "), or no event would be measured");
  }
  if (c["start_spread"].present()) w.start_spread_s = read_non_negative_duration(c["start_spread"]);
  if (c["client"].present()) w.client = read_client(c["client"]);
  if (c["preemption"].present()) w.preemption = read_preemption(c["preemption"]);
  w.pipeline = read_pipeline(c["pipeline"], models);
  if (c["inference"].present()) {
    w.direct_inference = read_choice(c["inference"], {"service", "direct"}) == "direct";
    // Direct inference needs each remote module's time on the CPU; a silent 0 would look like a free model.
    for (std::size_t i = 0; w.direct_inference && i < w.pipeline.size(); ++i) {
      Module& module = w.pipeline[i];
      if (module.type != Module::Type::remote_inference) continue;
      if (!module.direct_s)
        c["inference"].fail("direct inference, but module '" + module.name +
                            "' has no 'direct' time (its model's inference time per event on the job's CPU); "
                            "expected a 'direct' key on every remote_inference module");
      module.run_direct = true;
    }
  }
  if (c["campaign"].present()) w.campaign = read_campaign(c["campaign"], w);
  return w;
}

// A relative precision: "2%", 0.02, or off (0).
double read_precision(const Cursor& c) {
  const std::string text = c.scalar("a relative precision such as 2% or 0.02, or off");
  if (text == "off") return 0.0;
  double value = 0.0;
  if (!text.empty() && text.back() == '%') {
    try {
      std::size_t used = 0;
      value = std::stod(text.substr(0, text.size() - 1), &used) / 100.0;
      if (used != text.size() - 1) value = -1.0;
    } catch (const std::exception&) {
      value = -1.0;
    }
  } else {
    value = read_number(c);
  }
  require(c, value > 0.0 && value <= 0.5, "a relative precision above 0 and at most 50%, e.g. 2%, or off");
  return value;
}

// output.precision_figures: a non-empty list of distinct headline figures.
std::vector<std::string> read_precision_figures(const Cursor& c) {
  const std::string expected = "a list of the precision rule's headline figures (events_per_s, event_mean_s, "
                               "module_mean_s, gpu_utilisation), e.g. [events_per_s]";
  require(c, c.node().IsSequence() && c.node().size() > 0, expected);
  std::vector<std::string> figures;
  for (std::size_t i = 0; i < c.node().size(); ++i) {
    const Cursor item = c[i];
    const std::string name = item.scalar(expected);
    require(item, std::find(headline_figures.begin(), headline_figures.end(), name) != headline_figures.end(),
            expected);
    require(item, std::find(figures.begin(), figures.end(), name) == figures.end(),
            "each figure once; " + name + " is named twice");
    figures.push_back(name);
  }
  return figures;
}

OutputSettings read_output(const Cursor& c) {
  OutputSettings o;
  if (c.present() && c["timeseries_interval"].present()) {
    o.timeseries_interval_s = read_duration_s(c["timeseries_interval"]);
    // Monitoring rows are seconds to minutes apart; finer rows make the time series grow with simulated time
    // faster than anything reads it.
    require(c["timeseries_interval"], o.timeseries_interval_s >= 1.0,
            "an interval of at least 1s, e.g. \"60s\"");
  }
  if (c.present() && c["precision"].present()) o.precision_relative = read_precision(c["precision"]);
  if (c.present() && c["max_extension"].present()) {
    o.max_extension = read_number(c["max_extension"]);
    require(c["max_extension"], o.max_extension >= 1.0 && o.max_extension <= 1000.0,
            "a factor from 1 (never extend) to 1000, e.g. 16");
  }
  if (c.present() && c["stop_at_window_end"].present())
    o.stop_at_window_end = read_bool(c["stop_at_window_end"]);
  if (c.present() && c["precision_figures"].present())
    o.precision_figures = read_precision_figures(c["precision_figures"]);
  if (c.present() && c["stop_beyond"].present())
    for (const std::string_view name : headline_figures) {
      const std::string figure(name);
      const Cursor bounds = c["stop_beyond"][figure];
      if (!bounds.present()) continue;
      FigureBounds& b = o.stop_beyond[figure];
      // Rates, times and fractions: finite and not negative (read_number refuses what is not finite).
      for (const char* side : {"above", "below"})
        if (bounds[side].present()) {
          const double value = read_number(bounds[side]);
          require(bounds[side], value >= 0.0 && value <= 1e12, "a bound from 0 to 1e12 in the figure's unit");
          (std::string(side) == "above" ? b.above : b.below) = value;
        }
    }
  return o;
}

} // namespace sonicsim::detail

// Bad input: every error names the file, line:column, the key path, the offending value and what is expected.
// The base scenario below is valid; each case changes one thing. Line numbers refer to the text as changed.
#include <doctest/doctest.h>

#include <string>

#include "sim/scenario/scenario_loader.hpp"

using namespace sonicsim;

namespace {

const std::string base = R"(name: t
platform:
  nic_mix: [{bandwidth: "10Gbps", fraction: 0.5}, {bandwidth: "1Gbps", fraction: 0.5}]
models:
  m:
    input_bytes_per_inference: "9216B"
    output_bytes_per_inference: "16B"
    throughput:
      T4: {points: [[1, 600], [64, 9000]]}
    triton: {max_batch_size: 64}
workload:
  jobs: 10
  pipeline:
    - {name: reco, type: cpu, duration: "1s"}
    - {name: ml, type: remote_inference, model: m, inferences: 100, max_batch: 64}
)";

// The base with the first occurrence of `from` replaced by `to`.
std::string with(const std::string& from, const std::string& to) {
  const auto at = base.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "test setup: '" << from << "' is not in the base scenario");
  return base.substr(0, at) + to + base.substr(at + from.size());
}

std::string error_of(const std::string& yaml, const std::vector<std::string>& sets = {}) {
  try {
    load_scenario_text(yaml, "bad.yaml", sets);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "no error";
}

} // namespace

TEST_CASE("scenario errors: the base scenario of these tests is valid") {
  CHECK(error_of(base) == "no error");
}

TEST_CASE("scenario errors: ScenarioError carries its parts and renders FILE:LINE:COL: key 'PATH': MESSAGE") {
  try {
    load_scenario_text(with("jobs: 10", "jobs: 0"), "bad.yaml");
    FAIL("expected a ScenarioError");
  } catch (const ScenarioError& e) {
    CHECK(e.file == "bad.yaml");
    CHECK(e.line == 12);
    CHECK(e.column == 9); // the value, after "  jobs: "
    CHECK(e.key_path == "workload.jobs");
    CHECK(e.message == "got \"0\"; expected an integer in 1..1000000");
    CHECK(std::string(e.what()) ==
          "bad.yaml:12:9: key 'workload.jobs': got \"0\"; expected an integer in 1..1000000");
  }
}

TEST_CASE("scenario errors: a missing file names the path") {
  CHECK(error_of("") != "no error"); // an empty document is not a scenario either
  try {
    load_scenario_file("/nonexistent/scenario.yaml");
    FAIL("expected a ScenarioError");
  } catch (const ScenarioError& e) {
    CHECK(std::string(e.what()) == "/nonexistent/scenario.yaml: no such file; expected a YAML scenario file");
  }
}

TEST_CASE("scenario errors: malformed YAML reports yaml-cpp's position") {
  const std::string e = error_of(with("jobs: 10", "jobs: [10"));
  CHECK(e.rfind("bad.yaml:13:", 0) == 0); // the unclosed flow sequence is detected on the next line
  CHECK(e.find("malformed YAML") != std::string::npos);
}

TEST_CASE("scenario errors: unknown keys suggest the nearest known key, at the key's own position") {
  CHECK(error_of(with("jobs: 10", "job: 10")) ==
        "bad.yaml:12:3: key 'workload.job': unknown key 'job' (did you mean 'jobs'?)");
  CHECK(error_of(with("platform:", "platfrom:")) ==
        "bad.yaml:2:1: key 'platfrom': unknown key 'platfrom' (did you mean 'platform'?)");
  CHECK(error_of(with("triton: {max_batch_size: 64}", "triton: {max_batch: 64}")) ==
        "bad.yaml:10:14: key 'models.m.triton.max_batch': unknown key 'max_batch' (did you mean "
        "'max_batch_size'?)");
  // Nothing close: the known keys are listed instead.
  CHECK(
      error_of(with("jobs: 10", "jobs: 10\n  colour: blue"))
          .find("key 'workload.colour': unknown key 'colour' (expected one of: jobs, events_per_job, "
                "warmup_events, threads, inference, start_spread, client, preemption, pipeline, campaign)") !=
      std::string::npos);
}

TEST_CASE("scenario errors: a key written twice is reported at the second one") {
  CHECK(error_of(with("jobs: 10", "jobs: 10\n  jobs: 20")) ==
        "bad.yaml:13:3: key 'workload.jobs': duplicate key 'jobs' (first written at line 12); write each key "
        "once");
}

TEST_CASE("scenario errors: module keys are checked against the module's type") {
  CHECK(error_of(with("duration: \"1s\"}", "duration: \"1s\", max_batch: 4}")) ==
        "bad.yaml:14:47: key 'workload.pipeline[0].max_batch': key 'max_batch' does not apply to a cpu "
        "module (cpu "
        "modules take: name, type, duration)");
  CHECK(error_of(with("type: cpu", "type: gpu")) ==
        "bad.yaml:14:26: key 'workload.pipeline[0].type': unknown module type 'gpu' (did you mean 'cpu'?)");
  CHECK(error_of(with("model: m,", "modle: m,"))
            .find("bad.yaml:15:42: key 'workload.pipeline[1].modle': unknown key 'modle' (did you mean "
                  "'model'?)") == 0);
}

TEST_CASE("scenario errors: a missing or wrong unit says what is expected") {
  CHECK(error_of(with("duration: \"1s\"", "duration: 1")) ==
        "bad.yaml:14:41: key 'workload.pipeline[0].duration': expected a duration with a unit, e.g. "
        "\"12ms\"; got "
        "the bare number \"1\"");
  CHECK(error_of(with("\"9216B\"", "\"9216 bytes\""))
            .find("bad.yaml:6:32: key 'models.m.input_bytes_per_inference': unknown size in bytes unit "
                  "'bytes'") == 0);
  CHECK(error_of(with("\"10Gbps\"", "\"10GHz\""))
            .find("bad.yaml:3:25: key 'platform.nic_mix[0].bandwidth': unknown bandwidth unit 'GHz'") == 0);
}

TEST_CASE("scenario errors: zero, negative and sub-kbps bandwidths are rejected") {
  CHECK(
      error_of(with("\"10Gbps\"", "\"0Gbps\"")) ==
      "bad.yaml:3:25: key 'platform.nic_mix[0].bandwidth': got \"0Gbps\"; expected a bandwidth of at least 1 "
      "kbps, e.g. \"10Gbps\"");
  CHECK(error_of(with("platform:", "platform:\n  wan: {bandwidth: \"-1Gbps\"}"))
            .find("key 'platform.wan.bandwidth': got \"-1Gbps\"; expected a bandwidth of at least 1 kbps") !=
        std::string::npos);
  // 5e-320 Gb/s is a positive double, but SimGrid would step through it forever.
  CHECK(error_of(with("platform:", "platform:\n  wan: {bandwidth: \"5e-320Gbps\"}"))
            .find("expected a bandwidth of at least 1 kbps") != std::string::npos);
}

TEST_CASE("scenario errors: values that overflow after unit conversion, or beyond physical bounds") {
  // 1e308 hours is 3.6e311 s: infinity in a double. Durations are bounded at 10 years.
  CHECK(error_of(with("\"1s\"", "\"1e308h\"")).find("expected a finite value of at most 10 years") !=
        std::string::npos);
  // 100,000 h = 11.4 years: finite, but beyond the bound.
  CHECK(error_of(with("\"1s\"", "\"100000h\"")) == "bad.yaml:14:41: key 'workload.pipeline[0].duration': got "
                                                   "\"100000h\"; expected a finite value of at most "
                                                   "10 years (longer simulated times are typos)");
  CHECK(error_of(with("platform:", "platform:\n  wan: {rtt: \"11s\"}"))
            .find("key 'platform.wan.rtt': got \"11s\"; expected a round-trip time between 0 and 10s") !=
        std::string::npos);
  CHECK(error_of(with("platform:", "platform:\n  server_groups: {g: {pods: 65536, devices: {count: 65536}}}"))
            .find("key 'platform.server_groups.g.pods': got \"65536\"; expected an integer in 1..10000") !=
        std::string::npos);
  CHECK(error_of(with("platform:", "platform:\n  jobs_per_node: 2147483647"))
            .find("expected an integer in 1..1024") != std::string::npos);
  CHECK(error_of(with("platform:", "platform:\n  network: {tcp_window: \"100B\"}"))
            .find("expected a window of 0 (no cap) or between 1KiB and 1GB") != std::string::npos);
  CHECK(error_of(with("name: t", "name: \"../../x\""))
            .find("key 'name': got \"../../x\"; expected a plain name for the output directory") !=
        std::string::npos);
  CHECK(error_of(with("name: t", "name: \"caf\xE9\"")).find("key 'name': got text that is not valid UTF-8") !=
        std::string::npos);
}

TEST_CASE("scenario errors: a negative small-reply size") {
  CHECK(
      error_of(with("platform:", "platform:\n  network: {small_reply_max: \"-1kB\"}"))
          .find(
              "bad.yaml:3:30: key 'platform.network.small_reply_max': got \"-1kB\"; expected a size >= 0") ==
      0);
}

TEST_CASE("scenario errors: zero or negative jobs, and max_batch below 1") {
  CHECK(error_of(with("jobs: 10", "jobs: -3")) ==
        "bad.yaml:12:9: key 'workload.jobs': got \"-3\"; expected an integer in 1..1000000");
  CHECK(error_of(with("jobs: 10", "jobs: 2.5")) ==
        "bad.yaml:12:9: key 'workload.jobs': expected an integer, e.g. \"4\"; got \"2.5\"");
  CHECK(error_of(with("max_batch: 64", "max_batch: 0")) ==
        "bad.yaml:15:80: key 'workload.pipeline[1].max_batch': got \"0\"; expected an integer in "
        "1..1000000000");
}

TEST_CASE("scenario errors: required keys that are missing are named, at their parent's position") {
  CHECK(error_of(with("  jobs: 10\n", "")) ==
        "bad.yaml:12:3: key 'workload.jobs': missing required key; expected an integer in 1..1000000");
  CHECK(error_of(with(", max_batch: 64", ""))
            .find("key 'workload.pipeline[1].max_batch': missing required key") != std::string::npos);
  CHECK(error_of(with("jobs: 10", "jobs:")) ==
        "bad.yaml:12:3: key 'workload.jobs': has no value; expected an integer in 1..1000000");
}

TEST_CASE("scenario errors: fractions must sum to 1") {
  CHECK(error_of(with("fraction: 0.5}]", "fraction: 0.4}]")) ==
        "bad.yaml:3:12: key 'platform.nic_mix': the fractions sum to 0.9 (0.5 + 0.4); expected a sum of 1 "
        "(within "
        "1e-06)");
  // Decimal fractions that are not exact in binary still sum to 1 within the tolerance.
  CHECK(error_of(with("fraction: 0.5}, {bandwidth: \"1Gbps\", fraction: 0.5}",
                      "fraction: 0.64}, {bandwidth: \"1Gbps\", fraction: 0.36}")) == "no error");
}

TEST_CASE("scenario errors: preferred batch sizes above max_batch_size") {
  CHECK(error_of(with(
            "triton: {max_batch_size: 64}",
            "triton: {max_batch_size: 64, dynamic_batching: {enabled: true, preferred_batch_size: [32, "
            "128]}}")) == "bad.yaml:10:95: key 'models.m.triton.dynamic_batching.preferred_batch_size[1]': "
                          "got \"128\"; expected a "
                          "preferred batch size no larger than triton.max_batch_size (64)");
}

TEST_CASE(
    "scenario errors: throughput curves need points with increasing batch sizes and positive throughput") {
  CHECK(error_of(with("{points: [[1, 600], [64, 9000]]}", "{points: []}")) ==
        "bad.yaml:9:20: key 'models.m.throughput.T4.points': got the list []; expected a non-empty list of "
        "[batch "
        "size, inferences per second] pairs, e.g. [[1, 600], [64, 9000]]");
  CHECK(error_of(with("{points: [[1, 600], [64, 9000]]}", "{overhead: \"1ms\"}"))
            .find("key 'models.m.throughput.T4.points': missing required key") != std::string::npos);
  CHECK(
      error_of(with("[64, 9000]", "[1, 9000]")) ==
      "bad.yaml:9:32: key 'models.m.throughput.T4.points[1][0]': got \"1\"; expected a batch size above the "
      "previous point's (1): points are sorted by strictly increasing batch size");
  CHECK(error_of(with("[64, 9000]", "[64, 0]")) ==
        "bad.yaml:9:36: key 'models.m.throughput.T4.points[1][1]': got \"0\"; expected a throughput > 0 "
        "inferences "
        "per second");
  CHECK(error_of(with("[64, 9000]", "[64]")).find("expected a pair [batch size, inferences per second]") !=
        std::string::npos);
  CHECK(error_of(with("throughput:\n      T4: {points: [[1, 600], [64, 9000]]}", "throughput: {}"))
            .find("key 'models.m.throughput': expected at least one device type") != std::string::npos);
}

TEST_CASE("scenario errors: a remote_inference module naming an unknown model") {
  CHECK(error_of(with("model: m,", "model: mm,")) ==
        "bad.yaml:15:49: key 'workload.pipeline[1].model': unknown model 'mm' (did you mean 'm'?)");
}

TEST_CASE("scenario errors: server groups and deployments") {
  const std::string groups =
      "platform:\n  server_groups:\n    t4s: {pods: 2, devices: {type: T4, count: 2}}\n"
      "    cpus: {pods: 1, devices: {count: 0}, host_cores: 32}";
  // A model deployed on a group that does not exist.
  CHECK(
      error_of(
          with("platform:", groups)
              .replace(with("platform:", groups).find("triton: {max_batch_size: 64}"), 28,
                       "triton: {max_batch_size: 64}\n    deploy: {groups: [t4], load_balancer: random}")) ==
      "bad.yaml:14:23: key 'models.m.deploy.groups[0]': unknown server group 't4'; expected one of "
      "platform.server_groups: t4s, cpus");
  // With several groups a model must say where it runs.
  CHECK(
      error_of(with("platform:", groups)) ==
      "bad.yaml:9:5: key 'models.m': missing key 'deploy': with several server groups (t4s, cpus) each model "
      "says where it runs, e.g. deploy: {groups: [t4s]}");
  // Instances of kind GPU on a group without devices (without instance_group a CPU-only group gets one CPU
  // instance, as Triton's KIND_AUTO does, and then the model needs a CPU curve).
  CHECK(error_of(with("platform:", groups)
                     .replace(with("platform:", groups).find("triton: {max_batch_size: 64}"), 28,
                              "triton: {max_batch_size: 64, instance_group: [{kind: GPU}]}\n    deploy: "
                              "{groups: [cpus]}")) ==
        "bad.yaml:14:23: key 'models.m.deploy.groups[0]': model 'm' has instances of kind GPU but group "
        "'cpus' has no devices (devices.count 0); expected a group with devices, or instance_group kind CPU");
  // Instances on the CPU need the model's CPU curve.
  CHECK(
      error_of(with("triton: {max_batch_size: 64}",
                    "triton: {max_batch_size: 64, instance_group: [{count: 2, kind: CPU}]}"))
          .find("key 'models.m': model 'm' has CPU instances on group 'default' but no throughput curve for "
                "CPU; expected models.m.throughput.CPU") != std::string::npos);
  // A device type the model has no curve for.
  CHECK(
      error_of(with("platform:", "platform:\n  server_groups: {a100s: {devices: {type: A100, count: 8}}}")) ==
      "bad.yaml:7:5: key 'models.m': group 'a100s' has devices of type 'A100' and model 'm' has no "
      "throughput "
      "curve for it; expected one of the types under models.m.throughput: T4");
  // Left at its default (T4) the check still runs; a model used by no module needs no curve for it.
  CHECK(error_of(with("T4: {points", "V100: {points"))
            .find("group 'default' has devices of type 'T4' and model 'm' has no throughput curve for it") !=
        std::string::npos);
  // A device index beyond the pod's devices.
  CHECK(
      error_of(
          with("triton: {max_batch_size: 64}", "triton: {max_batch_size: 64, instance_group: [{gpus: [1]}]}"))
          .find("model 'm' places instances on device 1 but the pods of group 'default' have 1 device(s)") !=
      std::string::npos);
  // Zero pods or cores.
  CHECK(error_of(with("platform:", "platform:\n  server_groups: {g: {pods: 0}}")) ==
        "bad.yaml:3:29: key 'platform.server_groups.g.pods': got \"0\"; expected an integer in 1..10000");
  CHECK(
      error_of(with("platform:", "platform:\n  server_groups: {g: {host_cores: 0}}")) ==
      "bad.yaml:3:35: key 'platform.server_groups.g.host_cores': got \"0\"; expected an integer in 1..1024");
  // The old single-pool keys say what to write instead.
  CHECK(error_of(with("platform:", "platform:\n  server_pods: {count: 2}"))
            .find("bad.yaml:3:3: key 'platform.server_pods': key 'server_pods' is no longer read: the "
                  "servers are "
                  "now named groups") != std::string::npos);
  CHECK(error_of(with("triton: {max_batch_size: 64}", "triton: {max_batch_size: 64, instances_per_gpu: 2}"))
            .find("key 'instances_per_gpu' is no longer read: write triton.instance_group: [{count: N, kind: "
                  "GPU}]") != std::string::npos);
}

TEST_CASE("scenario errors: a request larger than max_batch_size would always be rejected") {
  CHECK(error_of(with("max_batch: 64", "max_batch: 65")) ==
        "bad.yaml:15:80: key 'workload.pipeline[1].max_batch': got \"65\"; expected at most the model's "
        "triton.max_batch_size (64): Triton rejects larger requests");
}

TEST_CASE("scenario errors: distribution parameters are checked for their distribution") {
  CHECK(error_of(with("duration: \"1s\"", "duration: {dist: normal, mean: \"1s\", sd: \"-1s\"}")) ==
        "bad.yaml:14:72: key 'workload.pipeline[0].duration.sd': got \"-1s\"; expected a standard deviation "
        ">= 0");
  CHECK(error_of(with("duration: \"1s\"", "duration: {dist: lognormal, mean: \"0s\", sd: \"1s\"}"))
            .find("key 'workload.pipeline[0].duration.mean': got \"0s\"; expected a mean > 0") !=
        std::string::npos);
  CHECK(error_of(with("duration: \"1s\"", "duration: {dist: exponential, mean: \"-2s\"}"))
            .find("key 'workload.pipeline[0].duration.mean': got \"-2s\"; expected a mean > 0") !=
        std::string::npos);
  CHECK(
      error_of(with("duration: \"1s\"", "duration: {dist: uniform, min: \"5s\", max: \"2s\"}"))
          .find("key 'workload.pipeline[0].duration.max': got \"2s\"; expected an upper bound >= min (5s)") !=
      std::string::npos);
  CHECK(error_of(with("duration: \"1s\"", "duration: {dist: normal, mean: \"1s\", sd: \"1s\", max: \"3s\"}"))
            .find("key 'workload.pipeline[0].duration.max': key 'max' is not a parameter of a normal "
                  "distribution "
                  "(normal takes: dist, mean, sd)") != std::string::npos);
  CHECK(error_of(with("duration: \"1s\"", "duration: {dist: gaussian, mean: \"1s\"}"))
            .find("bad.yaml:14:48: key 'workload.pipeline[0].duration.dist': unknown distribution 'gaussian' "
                  "(expected one "
                  "of: constant, normal, lognormal, exponential, uniform)") == 0);
  CHECK(error_of(with("inferences: 100", "inferences: {dist: normal, mean: 100, sd: \"5s\"}"))
            .find("key 'workload.pipeline[1].inferences.sd': expected a plain number without a unit; got "
                  "\"5s\"") != std::string::npos);
}

TEST_CASE("scenario errors: threads per job") {
  CHECK(error_of(with("  jobs: 10", "  jobs: 10\n  threads: 0")) ==
        "bad.yaml:13:12: key 'workload.threads': got \"0\"; expected an integer in 1..256");
}

TEST_CASE("scenario errors: choices, booleans, module names and client settings") {
  CHECK(error_of(with("triton: {max_batch_size: 64}",
                      "triton: {max_batch_size: 64}\n    deploy: {load_balancer: roundrobin}")) ==
        "bad.yaml:11:29: key 'models.m.deploy.load_balancer': got \"roundrobin\"; expected one of random | "
        "round_robin | least_connections (did you mean 'round_robin'?)");
  CHECK(error_of(with("triton: {max_batch_size: 64}",
                      "triton: {max_batch_size: 64, dynamic_batching: {enabled: maybe}}"))
            .find("key 'models.m.triton.dynamic_batching.enabled': got \"maybe\"; expected true or false") !=
        std::string::npos);
  CHECK(error_of(with("name: ml,", "name: reco,")) == "bad.yaml:15:14: key 'workload.pipeline[1].name': "
                                                      "duplicate module name 'reco'; expected a unique name");
  CHECK(error_of(with("jobs: 10", "jobs: 10\n  client: {max_in_flight: 4}"))
            .find("key 'workload.client.max_in_flight': got \"4\" with mode: sync; a synchronous client has "
                  "one request "
                  "in flight") != std::string::npos);
  CHECK(error_of(with("jobs: 10", "jobs: 10\n  events_per_job: 2\n  warmup_events: 2"))
            .find("key 'workload.warmup_events': got \"2\"; expected fewer warm-up events than "
                  "events_per_job (2)") != std::string::npos);
}

TEST_CASE("scenario errors: a map or list where another shape is expected") {
  CHECK(error_of(with("platform:\n  nic_mix", "platform: 5\nx:\n  nic_mix"))
            .find("bad.yaml:2:11: key 'platform': got \"5\"; expected a map with keys: jobs_per_node, "
                  "node_cores, nic_mix") == 0);
  CHECK(error_of(with("pipeline:", "pipeline: {}\n  x:"))
            .find("key 'workload.pipeline': got the map {}; expected a list") != std::string::npos);
}

TEST_CASE("scenario errors: work that operations could make without end") {
  // An event of t s of CPU, preempted every m s on average, finishes once in e^(t/m) tries on average; more
  // than 100 is refused. The loader's minimum mean time is 1 s, so the reco module takes 5 s here.
  const std::string slow = with("duration: \"1s\"", "duration: \"5s\"");
  const auto preempted = [&slow](const std::string& mean) {
    return slow + "  preemption: {mean_time: \"" + mean + "\", resubmit: true}\n";
  };
  // 5 s of CPU every 1 s on average: e^5 tries.
  const std::string error = error_of(preempted("1s"));
  CHECK(error.find("key 'workload.preemption.mean_time'") != std::string::npos);
  CHECK(error.find("e^5 tries") != std::string::npos);
  CHECK(error.find("at least 1.086 s") != std::string::npos); // 5 / ln(100)
  // 1.1 s: e^(5/1.1) = e^4.545 = 94 tries, within the bound.
  CHECK(error_of(preempted("1.1s")) == "no error");
  // Without resubmission nothing runs again: any mean time goes.
  CHECK(error_of(slow + "  preemption: {mean_time: \"1s\", resubmit: false}\n") == "no error");
  CHECK(error_of(slow + "  preemption: {mean_time: \"1s\", max_resubmissions: 1001}\n")
            .find("preemption.max_resubmissions") != std::string::npos);
  // A request's tries: 11 x (3000 s + 1 s) = 9.17 h is allowed; 100 retries of 1000 s is 28 h, refused.
  CHECK(error_of(base + "  client: {retries: 10, timeout: \"3000s\"}\n") == "no error");
  const std::string tries = error_of(base + "  client: {retries: 100, timeout: \"1000s\"}\n");
  CHECK(tries.find("key 'workload.client.retries'") != std::string::npos);
  CHECK(tries.find("at most a day") != std::string::npos);
  CHECK(error_of(base + "  client: {retries: 101}\n").find("workload.client.retries") != std::string::npos);
}

TEST_CASE("scenario errors: output.precision_figures names headline figures, each once") {
  const std::string expected = "expected a list of the precision rule's headline figures (events_per_s, "
                               "event_mean_s, module_mean_s, gpu_utilisation), e.g. [events_per_s]";
  const auto error = [](const std::string& list) {
    return error_of(base + "output: {precision_figures: " + list + "}\n");
  };
  CHECK(error("[events_per_s, module_mean_s]") == "no error");
  CHECK(error("[event_rate]") ==
        "bad.yaml:16:30: key 'output.precision_figures[0]': got \"event_rate\"; " + expected);
  CHECK(error("[]") == "bad.yaml:16:29: key 'output.precision_figures': got the list []; " + expected);
  CHECK(error("events_per_s") ==
        "bad.yaml:16:29: key 'output.precision_figures': got \"events_per_s\"; " + expected);
  CHECK(error("[events_per_s, events_per_s]").find("key 'output.precision_figures[1]'") != std::string::npos);
  CHECK(error("[events_per_s, events_per_s]").find("each figure once; events_per_s is named twice") !=
        std::string::npos);
}

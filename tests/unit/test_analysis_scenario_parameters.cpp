// Scenario -> analytic parameters: the numbers the SONIC model, the network limit and MVA are given, checked
// by hand against the scenario's own inputs.
#include "sim/analysis/analytic_curve.hpp"
#include "sim/analysis/figure_context.hpp"
#include "sim/analysis/scenario_parameters.hpp"
#include "sim/scenario/input_error.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using sonicsim::analysis::derive_parameters;

TEST_CASE("ProtoDUNE 2020 large batch: t_GPU ~1.8 s, knee ~270 jobs") {
  const auto scenario = sonicsim::load_default_scenario();
  const auto parameters = derive_parameters(scenario);
  CHECK(parameters.accelerated_modules == std::vector<std::string>{"EmTrkMichelId"});
  CHECK(parameters.t_other_cpu_s == doctest::Approx(110.0));
  CHECK(parameters.t_preprocess_s == doctest::Approx(7.0));
  // normal(55,000, 5,500) inferences: the Monte Carlo mean of 2,000 draws is within 3 standard errors (0.7
  // %).
  CHECK(parameters.inferences == doctest::Approx(55000.0).epsilon(0.01));
  // 32 groups with lognormal weights (sigma 0.5) chunked by 16,384: mostly one request per group, ~1,700 each
  // (the simulator's mean request size, tests/scenario/test_protodune_2020.cpp).
  CHECK(parameters.mean_request_size == doctest::Approx(1700.0).epsilon(0.05));
  // Requests of ~1,700 run near the curve's 31,250/s plateau; the small groups run slower: ~1.8 s per event.
  CHECK(parameters.t_gpu_s > 55000.0 / 31250.0);
  CHECK(parameters.t_gpu_s == doctest::Approx(1.8).epsilon(0.05));
  // 55,000 x (9,216 + 16) B x 8 = 4.06 Gb at 2 Gb/s (10 Gbps NICs, TCP window cap) or 1 Gb/s (1 Gbps NICs):
  // 0.64 x 2.03 s + 0.36 x 4.06 s = 2.76 s.
  CHECK(parameters.t_transmit_s == doctest::Approx(2.76).epsilon(0.02));
  CHECK(parameters.t_travel_s == doctest::Approx(parameters.requests * 0.012));
  CHECK(parameters.n_gpu == 4); // 4 T4s, however they are spread over pods
  const auto model = parameters.latency_model();
  // t_ideal = 110 + 7 + 1.8 + 2.76 + 0.39 ~ 122 s; knee = 4 x 122 / 1.8 ~ 270 (arXiv:2009.04509 section 3.4).
  CHECK(model.t_ideal_s() == doctest::Approx(122.0).epsilon(0.01));
  CHECK(model.knee_jobs() == doctest::Approx(270.0).epsilon(0.06));
  // The tightest shared outbound link of the scenario (the switch, the WAN or all pods' NICs together) sets
  // the network limit: capacity / 4.06 Gb per event x 122 s per event.
  const auto& platform = scenario.platform;
  const double tightest_bps =
      std::min({platform.site_switch.bandwidth_bps - platform.site_switch.background.rate_bps,
                platform.wan.bandwidth_bps,
                platform.server_groups.front().pods * platform.server_groups.front().nic_bandwidth_bps});
  CHECK(parameters.shared_outbound_bps == doctest::Approx(tightest_bps));
  CHECK(parameters.network_limited_jobs(model.t_ideal_s()) ==
        doctest::Approx(tightest_bps / 4.055e9 * 122.0).epsilon(0.02));
  // Every derived number says where it came from.
  for (const auto& quantity : parameters.quantities)
    CHECK_FALSE(quantity.derivation.empty());
  // Derivation is deterministic (fixed Monte Carlo stream).
  CHECK(derive_parameters(sonicsim::load_default_scenario()).t_gpu_s == parameters.t_gpu_s);
}

TEST_CASE("a deterministic split is counted exactly, CPU mix and small batches included") {
  const auto scenario = sonicsim::load_default_scenario({
      "workload.pipeline[1].inferences=1000",
      "workload.pipeline[1].groups=4",
      "workload.pipeline[1].group_spread=0",
      "workload.pipeline[1].max_batch=100",
      "platform.cpu_mix=[{name: slow, fraction: 0.5, speed: 0.5}, {name: fast, fraction: 0.5, speed: 2.0}]",
  });
  const auto parameters = derive_parameters(scenario);
  // 4 groups of 250 -> chunks 100, 100, 50 each: 12 requests.
  CHECK(parameters.requests == doctest::Approx(12.0));
  CHECK(parameters.inferences == doctest::Approx(1000.0));
  // Throughput at 100 and 50 interpolated on the T4 curve: [64, 11468] .. [128, 17090]; below 64:
  // [16, 3857] .. .
  const double t100_s = 100.0 / (11468.0 + (100.0 - 64.0) / 64.0 * (17090.0 - 11468.0));
  const double t50_s = 50.0 / (3857.0 + (50.0 - 16.0) / 48.0 * (11468.0 - 3857.0));
  CHECK(parameters.t_gpu_s == doctest::Approx(4.0 * (2.0 * t100_s + t50_s)));
  // E[1/speed] = 0.5 / 0.5 + 0.5 / 2 = 1.25.
  CHECK(parameters.mean_inverse_cpu_speed == doctest::Approx(1.25));
  CHECK(parameters.t_other_cpu_s == doctest::Approx(110.0 * 1.25));
  CHECK(parameters.t_preprocess_s == doctest::Approx(7.0 * 1.25));
}

TEST_CASE("MVA at one job equals t_ideal; both models agree far below and far beyond the knee") {
  const auto parameters = derive_parameters(sonicsim::load_default_scenario());
  const auto model = parameters.latency_model();
  const auto curve = sonicsim::analysis::analytic_curve(parameters, {1, 20, 2000});
  CHECK(curve[0].mva_event_s == doctest::Approx(model.t_ideal_s()).epsilon(1e-9));
  CHECK(curve[0].mva_module_s == doctest::Approx(model.t_module_s(1)).epsilon(1e-9));
  CHECK(curve[1].mva_event_s == doctest::Approx(curve[1].sonic_event_s).epsilon(0.01));
  CHECK_FALSE(curve[1].saturated);
  // Far beyond the knee both are N t_GPU / N_GPU (the GPU pool is the bottleneck).
  CHECK(curve[2].saturated);
  CHECK(curve[2].mva_event_s == doctest::Approx(curve[2].sonic_event_s).epsilon(0.01));
  CHECK(curve[2].mva_gpu_utilisation == doctest::Approx(1.0).epsilon(0.001));
}

TEST_CASE("a pipeline without remote inference has no analytic model") {
  const auto scenario = sonicsim::load_scenario_file(std::string(SONICSIM_SOURCE_DIR) +
                                                     "/configs/protodune_2020_cpu_only.yaml");
  CHECK_THROWS_AS(derive_parameters(scenario), sonicsim::InputError);
}

TEST_CASE("a named figure in a run: narrowed to its module, GPU time with the scenario's inferences, none "
          "refused") {
  using namespace sonicsim;
  const auto scenario = load_default_scenario();
  RunSummary run;
  run.event = TimeStatistics{10, 130.0, 0, 0, 0, 0, 0};
  run.modules = {{"EmTrkMichelId", TimeStatistics{10, 12.0, 0, 0, 0, 0, 0}},
                 {"reco", TimeStatistics{10, 110.0, 0, 0, 0, 0, 0}}};
  run.gpus = 4;
  run.gpu_utilisation = 0.5;
  run.inferences_per_s = 20000.0;
  const auto name = [](const std::string& text) { return parse_figure_name(text, "test"); };
  CHECK(analysis::named_figure_value(name("event_mean_s"), run, scenario, "w") == 130.0);
  CHECK(analysis::named_figure_value(name("module_mean_s"), run, scenario, "w") == 12.0); // the served module
  CHECK(analysis::named_figure_value(name("module_mean_s:reco"), run, scenario, "w") == 110.0);
  // 0.5 x 4 GPUs / 20,000 inferences/s = 1e-4 GPU-s per inference, x the scenario's ~55,000 per event.
  CHECK(analysis::named_figure_value(name("gpu_s_per_event"), run, scenario, "w") ==
        doctest::Approx(1e-4 * derive_parameters(scenario).inferences));
  // A module the run never ran has no value: refused, naming the caller.
  CHECK_THROWS_WITH_AS(
      analysis::named_figure_value(name("module_mean_s:absent"), run, scenario, "prediction x"),
      doctest::Contains("prediction x: a run does not define module_mean_s:absent"), std::runtime_error);
}

TEST_CASE("the analytic inference count is the mean of the counts the job client draws, rounded") {
  // A ParticleNet AK8-like count, uniform [0, 0.674) jets per event: the job client rounds each draw, so an
  // event has a jet with probability (0.674 - 0.5) / 0.674 = 0.2582, and the analytic model must send that
  // many, not the distribution's mean 0.337 (it did: the module time 12 % above a low-load run's).
  auto scenario = sonicsim::load_default_variant(
      {}, {"workload.pipeline.EmTrkMichelId.inferences={dist: uniform, min: 0, max: 0.674}"});
  const auto parameters = derive_parameters(scenario);
  CHECK(parameters.inferences == doctest::Approx((0.674 - 0.5) / 0.674).epsilon(1e-9));
  CHECK(parameters.requests == doctest::Approx(parameters.inferences).epsilon(0.01)); // one request a jet
}

TEST_CASE("models sharing a device: the switches at request-sized batches, which Eq. 1-5 lack, are counted") {
  // The three ParticleNet AK8 taggers alone on one T4 (0.549 ms per switch), each 0.2582 requests per event:
  // a request follows another model's with probability 2/3, so 3 x 0.2582 x 2/3 x 0.549 ms per event.
  const auto scenario = sonicsim::load_variant_file(std::string(SONICSIM_SOURCE_DIR) +
                                                        "/configs/cms_miniaod_2024_one_model_per_t4.yaml",
                                                    {"particlenet_ak8"});
  const auto parameters = derive_parameters(scenario);
  const double per_model = (0.674 - 0.5) / 0.674;
  CHECK(parameters.t_model_switch_s == doctest::Approx(3.0 * per_model * 2.0 / 3.0 * 0.549e-3).epsilon(0.01));
  CHECK(std::any_of(parameters.caveats.begin(), parameters.caveats.end(), [](const std::string& c) {
    return c.find("models share a device with a switch time") != std::string::npos;
  }));
}

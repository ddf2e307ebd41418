// The figure table (sim/metrics/figure_table.hpp): one name, unit and reading per figure, the names from
// before the table still read, and the one bottleneck vote every replicated result uses.
#include <doctest/doctest.h>

#include "sim/metrics/figure_table.hpp"
#include "sim/metrics/operations_json.hpp"
#include "sim/scenario/input_error.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

using namespace sonicsim;

namespace {

RunSummary two_module_run() {
  RunSummary s;
  s.modules = {{"cpu_part", TimeStatistics{10, 100.0, 90.0, 150.0, 160.0, 0, 0}},
               {"pnet", TimeStatistics{10, 4.0, 3.5, 7.0, 9.0, 0, 0}},
               {"deepmet", TimeStatistics{10, 1.0, 0.9, 2.0, 3.0, 0, 0}}};
  s.event = TimeStatistics{10, 105.0, 95.0, 160.0, 170.0, 0, 0};
  s.events_completed = 10;
  s.events_per_s = 2.0;
  s.inferences_per_s = 400.0;
  s.gpu_utilisation = 0.5;
  s.gpus = 2;
  return s;
}

} // namespace

TEST_CASE("figure table: every figure once, under one unique name with a unit, a label and a meaning") {
  std::set<std::string> names, labels;
  for (const auto& spec : figure_table()) {
    CHECK(names.insert(spec.name).second);
    CHECK(labels.insert(spec.label).second); // two rows of a table never read alike
    CHECK(std::string(spec.unit) != "");
    CHECK(std::string(spec.meaning) != "");
    CHECK(&spec_of(spec.figure) == &spec);
    // A time's name ends in _s, so a file's reader sees the unit.
    if (std::string(spec.unit) == "s")
      CHECK(std::string(spec.name).substr(std::string(spec.name).size() - 2) == "_s");
  }
  CHECK(names.size() == static_cast<std::size_t>(Figure::requests_timed_out) + 1);
}

TEST_CASE("figure titles: the label and the unit, a fraction as a percentage when shown so") {
  CHECK(figure_title(Figure::event_mean_s) == "event time (s)");
  CHECK(figure_title(Figure::gpu_utilisation) == "GPU utilisation (fraction)");
  CHECK(figure_title(Figure::gpu_utilisation, true) == "GPU utilisation (%)");
  CHECK(figure_title(Figure::peak_pods) == "peak pods held (count)");
}

TEST_CASE("figure table: module figures sum the modules asked for; a percentile only of one module") {
  const RunSummary s = two_module_run();
  FigureContext both{{"pnet", "deepmet"}, nullptr, 0.0};
  CHECK(*value_of(Figure::module_mean_s, s, both) == doctest::Approx(5.0));
  CHECK_FALSE(value_of(Figure::module_p95_s, s, both)); // no percentile of a sum
  CHECK(*value_of(Figure::module_p95_s, s, FigureContext{{"pnet"}, nullptr, 0.0}) == doctest::Approx(7.0));
  CHECK_FALSE(value_of(Figure::module_mean_s, s, FigureContext{{"absent"}, nullptr, 0.0}));
  CHECK(*value_of(Figure::event_p99_s, s, both) == doctest::Approx(170.0));
  // GPU-seconds per event: 0.5 x 2 GPUs / 400 inferences/s x 100 inferences per event = 0.25 s.
  CHECK(*value_of(Figure::gpu_s_per_event, s, FigureContext{{}, nullptr, 100.0}) == doctest::Approx(0.25));
  CHECK_FALSE(value_of(Figure::gpu_s_per_event, s, both));    // no inferences per event known
  CHECK_FALSE(value_of(Figure::cost_usd_per_event, s, both)); // no scenario, no prices
  RunSummary none = s;
  none.event = TimeStatistics{};
  CHECK_FALSE(value_of(Figure::event_mean_s, none, both)); // no completed event: undefined, not 0 s
}

TEST_CASE("figure names: current, narrowed, from before the table, unknown") {
  CHECK(parse_figure_name("event_mean_s", "x").figure == Figure::event_mean_s);
  CHECK(renamed_notice(parse_figure_name("event_mean_s", "x")).empty());
  const auto narrowed = parse_figure_name("module_p95_s:pnet", "x");
  CHECK(narrowed.figure == Figure::module_p95_s);
  CHECK(narrowed.module == "pnet");
  CHECK(narrowed.text() == "module_p95_s:pnet");
  // calibrate --observable, compare.json, plan --target and replications.json before the table:
  for (const auto& [old, now] :
       std::vector<std::pair<std::string, std::string>>{{"module:pnet", "module_mean_s:pnet"},
                                                        {"event", "event_mean_s"},
                                                        {"event_s", "event_mean_s"},
                                                        {"module_time", "module_mean_s"},
                                                        {"event_time_p95", "event_p95_s"},
                                                        {"throughput", "events_per_s"},
                                                        {"cost_per_event", "cost_usd_per_event"},
                                                        {"modules.pnet.p95_s", "module_p95_s:pnet"},
                                                        {"event.mean_s", "event_mean_s"},
                                                        {"peak_replicas", "peak_pods"},
                                                        {"mean_held_replicas", "mean_held_pods"}}) {
    const auto name = parse_figure_name(old, "x");
    CHECK(name.text() == now);
    CHECK(renamed_notice(name).find("'" + old + "' is now called '" + now + "'") != std::string::npos);
  }
  CHECK_THROWS_WITH_AS(
      parse_figure_name("latency", "--observable"),
      doctest::Contains("--observable: unknown figure 'latency'; expected one of module_mean_s"), InputError);
  CHECK_THROWS_AS(parse_figure_name("events_per_s:pnet", "x"), InputError); // not a module figure
  CHECK_THROWS_AS(parse_figure_name("module_mean_s:", "x"), InputError);
}

TEST_CASE("bottleneck vote: the resource most replications name; a tie goes to the one named first") {
  const auto vote = vote_bottleneck({Bottleneck{ResourceKind::pod_nics, 0, "pod NICs", 0.95},
                                     Bottleneck{ResourceKind::device_pool, 0, "GPU pool", 0.97},
                                     Bottleneck{ResourceKind::device_pool, 0, "GPU pool", 0.93}});
  CHECK(vote.bottleneck.busiest == "GPU pool");
  CHECK(vote.bottleneck.utilisation == doctest::Approx(0.95)); // mean over the two that named it
  CHECK(vote.votes == 2);
  CHECK(vote.replications == 3);
  const auto tie = vote_bottleneck({Bottleneck{ResourceKind::site_switch, std::nullopt, "site switch", 0.5},
                                    Bottleneck{ResourceKind::device_pool, 0, "GPU pool", 0.6}});
  CHECK(tie.bottleneck.busiest == "site switch");
  CHECK_FALSE(tie.bottleneck.saturated());
  CHECK(vote_bottleneck({}).votes == 0);
  // One name, two resources: a group's device pool and its host cores are told apart by their kind.
  const auto kinds = vote_bottleneck({Bottleneck{ResourceKind::host_cores, 0, "X", 0.9},
                                      Bottleneck{ResourceKind::device_pool, 0, "X", 0.9},
                                      Bottleneck{ResourceKind::device_pool, 0, "X", 0.9}});
  CHECK(kinds.bottleneck.kind == ResourceKind::device_pool);
  CHECK(kinds.votes == 2);
}

TEST_CASE("pods have one name: a summary written when they were replicas is read the same") {
  OperationsSummary now;
  PoolSummary pool;
  pool.group = "triton";
  pool.autoscaled = true;
  pool.min_pods = 1;
  pool.max_pods = 8;
  pool.peak_pods = 5;
  pool.mean_serving_pods = 2.5;
  pool.mean_held_pods = 3.25;
  now.pools.push_back(pool);
  const auto json = operations_to_json(now);
  CHECK(json.at("pools").at(0).at("peak_pods") == 5);
  // The same pool as a file from before the rename spells its counts "replicas".
  std::string text = json.dump();
  for (const std::string key : {"min_pods", "max_pods", "peak_pods", "mean_serving_pods", "mean_held_pods"}) {
    const auto at = text.find("\"" + key + "\"");
    REQUIRE(at != std::string::npos);
    text.replace(at + 1, key.size(), key.substr(0, key.size() - 4) + "replicas");
  }
  CHECK(text.find("peak_replicas") != std::string::npos);
  CHECK(text.find("pods_added") != std::string::npos); // a change is still "pods added"
  const auto old = operations_from_json(nlohmann::ordered_json::parse(text)).pools.at(0);
  CHECK(old.min_pods == 1);
  CHECK(old.max_pods == 8);
  CHECK(old.peak_pods == 5);
  CHECK(old.mean_serving_pods == 2.5);
  CHECK(old.mean_held_pods == 3.25);
}

TEST_CASE("figure table: the tables a figure is shown in come from its row, in the table's order") {
  // compare's rows: what a deployment's columns are set side by side on (its pooled ones apart).
  CHECK(figures_shown_in(in_compare) == std::vector<Figure>{Figure::module_mean_s, Figure::event_mean_s,
                                                            Figure::events_per_s, Figure::gpu_utilisation,
                                                            Figure::mean_executed_batch,
                                                            Figure::cost_usd_per_event});
  CHECK(figures_shown_in(in_compare_pool) == std::vector<Figure>{Figure::device_hours, Figure::peak_pods});
  // sweep.csv's interval columns are a subset of its columns; every shown figure is in the table once.
  const auto sweep = figures_shown_in(in_sweep);
  for (const Figure f : figures_shown_in(in_sweep_interval))
    CHECK(std::find(sweep.begin(), sweep.end(), f) != sweep.end());
  CHECK(sweep.size() == 16);
  std::set<Figure> seen(sweep.begin(), sweep.end());
  CHECK(seen.size() == sweep.size());
}

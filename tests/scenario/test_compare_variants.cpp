// `sonicsim compare` and the shipped variants move the figures the way the seeds say (issue 6): FP16 raises
// the CPU:GPU ratio; a server 50 ms away lengthens the module below the knee but hardly moves the knee;
// dynamic batching helps small batches and not large ones under load (arXiv:2009.04509, Fig. 7 and
// section 3.4).
#include "simulate.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>

namespace fs = std::filesystem;
using sonicsim::testing::run_sonicsim;

namespace {

std::map<std::string, nlohmann::json> compare(const std::string& name, const std::string& arguments) {
  const fs::path dir = fs::temp_directory_path() / ("sonicsim_compare_" + name);
  fs::remove_all(dir);
  const auto result =
      run_sonicsim("compare " + arguments +
                   " --set workload.events_per_job=4 --set output.precision=off -j 2 --out " + dir.string());
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  std::ifstream in(dir / "compare.json");
  std::map<std::string, nlohmann::json> columns;
  const auto json = nlohmann::json::parse(in); // kept: a range over a temporary's member would dangle
  for (const auto& column : json["columns"])
    columns[column["name"]] = column;
  return columns;
}

double get(const nlohmann::json& column, const char* key) {
  return column[key].get<double>();
}

} // namespace

TEST_CASE("compare, large batch at 100 jobs: FP16, a farther server, compression, asynchronous clients") {
  auto c = compare("large", "");
  REQUIRE(c.size() == 7); // the base and six variants (a100 included)
  const auto& base = c["base"];
  CHECK(get(c["fp16"], "ratio_simulated") > 1.8 * get(base, "ratio_simulated"));
  CHECK(get(c["fp16"], "ratio_analytic") > 1.8 * get(base, "ratio_analytic"));
  // 50 ms: 32 round trips (+1.2 s) and a 480 Mb/s window cap per connection: the module grows by half; the
  // knee moves by the event time only (~6 %).
  CHECK(get(c["far_server"], "module_low_load_s") > 1.3 * get(base, "module_low_load_s"));
  CHECK(get(c["far_server"], "knee_jobs_simulated") ==
        doctest::Approx(get(base, "knee_jobs_simulated")).epsilon(0.1));
  CHECK(get(c["far_server"], "knee_jobs_analytic") ==
        doctest::Approx(get(base, "knee_jobs_analytic")).epsilon(0.1));
  CHECK(get(c["compression_2x"], "module_low_load_s") < get(base, "module_low_load_s"));
  // 4 requests in flight overlap transfers, round trips and GPU time below the knee (arXiv:2009.04509
  // section 2.3: "slightly more efficient"); the GPU work per event, hence the knee, barely moves.
  CHECK(get(c["async_clients"], "module_low_load_s") < get(base, "module_low_load_s") - 1.5);
  CHECK(get(c["async_clients"], "knee_jobs_simulated") ==
        doctest::Approx(get(base, "knee_jobs_simulated")).epsilon(0.1));
  CHECK(c["base"]["cost_usd_per_event"].get<double>() > 0.0);
}

TEST_CASE("compare: dynamic batching helps small batches under load and not large ones") {
  auto small = compare("small_db", sonicsim::testing::config_path("protodune_2020_small_batch.yaml") +
                                       " --jobs 250 --columns dynamic_batching");
  REQUIRE(small.size() == 2);
  CHECK(get(small["dynamic_batching"], "module_mean_s") < 0.8 * get(small["base"], "module_mean_s"));
  CHECK(get(small["dynamic_batching"], "knee_jobs_simulated") >
        1.15 * get(small["base"], "knee_jobs_simulated"));
  auto large = compare("large_db", "--jobs 330 --columns dynamic_batching");
  CHECK(get(large["dynamic_batching"], "module_mean_s") ==
        doctest::Approx(get(large["base"], "module_mean_s")).epsilon(0.1));
  CHECK(get(large["dynamic_batching"], "knee_jobs_simulated") ==
        doctest::Approx(get(large["base"], "knee_jobs_simulated")).epsilon(0.1));
}

TEST_CASE("compare --columns: the columns in the order asked, after the base") {
  const fs::path dir = fs::temp_directory_path() / "sonicsim_compare_order";
  fs::remove_all(dir);
  const auto result = run_sonicsim("compare --columns a100,fp16 --jobs 50 --set workload.events_per_job=3 "
                                   "--set output.precision=off -j 2 --out " +
                                   dir.string());
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  std::ifstream in(dir / "compare.json");
  const auto json = nlohmann::json::parse(in);
  REQUIRE(json["columns"].size() == 3);
  CHECK(json["columns"][0]["name"] == "base");
  CHECK(json["columns"][1]["name"] == "a100"); // fp16 comes first in the file
  CHECK(json["columns"][2]["name"] == "fp16");
  fs::remove_all(dir);
}

TEST_CASE("compare --variant: applied to the base and every column, as in every command") {
  // --variant far_server --columns a100: the base is the far server, the column the far server on A100s.
  // Against --columns far_server,a100 (each alone): the first's base is the second's far_server column (the
  // same scenario and seed at 50 jobs: the same figures; the low-load reference differs, a tenth of each
  // base's knee), and its a100 column pays the farther server's round trips (50 ms instead of 12) that the
  // second's a100 column does not.
  const fs::path dir = fs::temp_directory_path() / "sonicsim_compare_applied";
  fs::remove_all(dir);
  const std::string common = " --jobs 50 --set workload.events_per_job=3 --set output.precision=off -j 2";
  const auto applied =
      run_sonicsim("compare --variant far_server --columns a100" + common + " --out " + (dir / "a").string());
  INFO(applied.output);
  REQUIRE(applied.exit_code == 0);
  const auto apart =
      run_sonicsim("compare --columns far_server,a100" + common + " --out " + (dir / "b").string());
  REQUIRE(apart.exit_code == 0);
  const auto with = nlohmann::json::parse(std::ifstream(dir / "a" / "compare.json"));
  const auto alone = nlohmann::json::parse(std::ifstream(dir / "b" / "compare.json"));
  REQUIRE(with["columns"].size() == 2);
  REQUIRE(alone["columns"].size() == 3);
  CHECK(with["columns"][1]["name"] == "a100");
  CHECK(with["columns"][0]["module_mean_s"] == alone["columns"][1]["module_mean_s"]);
  CHECK(with["columns"][0]["event_mean_s"] == alone["columns"][1]["event_mean_s"]);
  CHECK(with["columns"][1]["module_mean_s"].get<double>() >
        alone["columns"][2]["module_mean_s"].get<double>());
  // Naming a variant both ways is refused, naming both options.
  const auto both = run_sonicsim("compare --variant fp16 --columns fp16" + common);
  CHECK(both.exit_code == 2);
  CHECK(both.output.find("already applied to every column") != std::string::npos);
  fs::remove_all(dir);
}

// --vary value specifications, the sweep grid and --shard: every malformed argument is an error before any
// point runs (the command turns InputError and ScenarioError into exit code 2).
#include "sim/scenario/input_error.hpp"
#include "sim/scenario/scenario_error.hpp"
#include "sim/sweep/sweep_grid.hpp"

#include <doctest/doctest.h>

using sonicsim::InputError;
using sonicsim::ScenarioError;

TEST_CASE("range start:stop:step includes stop only when it is on the grid") {
  const auto values = sonicsim::expand_values("1:500:20");
  REQUIRE(values.size() == 25); // 1, 21, ..., 481: the 25-point default sweep
  CHECK(values.front() == "1");
  CHECK(values[1] == "21");
  CHECK(values.back() == "481");
  CHECK(sonicsim::expand_values("0:100:25") == std::vector<std::string>{"0", "25", "50", "75", "100"});
  CHECK(sonicsim::expand_values("5:5:1") == std::vector<std::string>{"5"});
}

TEST_CASE("decimal ranges do not drift and units are kept") {
  CHECK(sonicsim::expand_values("0.1:0.5:0.1") ==
        std::vector<std::string>{"0.1", "0.2", "0.3", "0.4", "0.5"});
  CHECK(sonicsim::expand_values("5ms:20ms:5ms") == std::vector<std::string>{"5ms", "10ms", "15ms", "20ms"});
  CHECK(sonicsim::expand_values("5ms:15ms:5") == std::vector<std::string>{"5ms", "10ms", "15ms"});
}

TEST_CASE("lists keep YAML values with commas whole") {
  CHECK(sonicsim::expand_values("256,16384") == std::vector<std::string>{"256", "16384"});
  CHECK(sonicsim::expand_values("[4, 8],[16]") == std::vector<std::string>{"[4, 8]", "[16]"});
  CHECK(sonicsim::expand_values("true") == std::vector<std::string>{"true"});
}

TEST_CASE("malformed ranges and lists are input errors") {
  CHECK_THROWS_AS(sonicsim::expand_values("1:500:0"), InputError);    // step 0
  CHECK_THROWS_AS(sonicsim::expand_values("1:500:-5"), InputError);   // negative step
  CHECK_THROWS_AS(sonicsim::expand_values("500:1:20"), InputError);   // start > stop
  CHECK_THROWS_AS(sonicsim::expand_values("1:500"), InputError);      // two parts
  CHECK_THROWS_AS(sonicsim::expand_values("1:x:2"), InputError);      // not a number
  CHECK_THROWS_AS(sonicsim::expand_values("1ms:5s:1ms"), InputError); // mixed units
  CHECK_THROWS_AS(sonicsim::expand_values("1:1e9:1"), InputError);    // too many points
  CHECK_THROWS_AS(sonicsim::expand_values("a,,b"), InputError);
  CHECK_THROWS_AS(sonicsim::expand_values(""), InputError);
  CHECK_THROWS_WITH_AS(sonicsim::expand_values("1:500:0"), doctest::Contains("step must be positive"),
                       InputError);
}

TEST_CASE("--vary checks the key against the scenario schema") {
  const auto axis = sonicsim::parse_vary("workload.jobs=1:41:20");
  CHECK(axis.key == "workload.jobs");
  CHECK(axis.values == std::vector<std::string>{"1", "21", "41"});
  CHECK_THROWS_AS(sonicsim::parse_vary("workload.jbos=1:5:1"), ScenarioError);
  CHECK_THROWS_AS(sonicsim::parse_vary("workload.jobs"), InputError);
  CHECK_THROWS_AS(sonicsim::parse_vary("=1,2"), InputError);
  CHECK_THROWS_WITH_AS(sonicsim::parse_vary("workload.jobs=1:5:0"), doctest::Contains("workload.jobs"),
                       InputError);
}

TEST_CASE("grid is row-major: the first --vary varies slowest") {
  const std::vector<sonicsim::VaryAxis> axes{{"workload.jobs", {"1", "2", "3"}},
                                             {"workload.pipeline.EmTrkMichelId.max_batch", {"256", "16384"}}};
  const auto grid = sonicsim::build_grid(axes);
  REQUIRE(grid.size() == 6);
  CHECK(grid[1].values == std::vector<std::string>{"1", "16384"});
  CHECK(grid[2].values == std::vector<std::string>{"2", "256"});
  CHECK(grid[5].index == 5);
  CHECK(sonicsim::point_overrides(axes, grid[3]) ==
        std::vector<std::string>{"workload.jobs=2", "workload.pipeline.EmTrkMichelId.max_batch=16384"});
  CHECK_THROWS_AS(sonicsim::build_grid({axes[0], axes[0]}), InputError);
}

TEST_CASE("--shard i/n takes every n-th point and rejects shards out of range") {
  const auto shard = sonicsim::parse_shard("2/3");
  CHECK(shard.contains(1));
  CHECK(shard.contains(4));
  CHECK_FALSE(shard.contains(0));
  CHECK_FALSE(shard.contains(2));
  CHECK_THROWS_AS(sonicsim::parse_shard("0/3"), InputError);
  CHECK_THROWS_AS(sonicsim::parse_shard("4/3"), InputError);
  CHECK_THROWS_AS(sonicsim::parse_shard("1/0"), InputError);
  CHECK_THROWS_AS(sonicsim::parse_shard("1-3"), InputError);
  CHECK_THROWS_AS(sonicsim::parse_shard("1/3x"), InputError);
}

TEST_CASE("analytic --jobs takes positive integers") {
  CHECK(sonicsim::parse_job_counts("1:41:20") == std::vector<int>{1, 21, 41});
  CHECK(sonicsim::parse_job_counts("10,300") == std::vector<int>{10, 300});
  CHECK_THROWS_AS(sonicsim::parse_job_counts("0,5"), InputError);
  CHECK_THROWS_AS(sonicsim::parse_job_counts("1.5"), InputError);
}

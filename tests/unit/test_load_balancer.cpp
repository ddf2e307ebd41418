#include "sim/policy/load_balancer.hpp"
#include "sim/random/random_streams.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

using namespace sonicsim;

TEST_CASE("round_robin sends job i to pod i mod pods and draws nothing") {
  auto rng = make_stream(1, stream_load_balancer);
  const auto untouched = rng;
  // 7 jobs on 3 pods: 0 1 2 0 1 2 0.
  std::vector<int> pods;
  for (int job = 0; job < 7; ++job)
    pods.push_back(choose_pod(LoadBalancer::round_robin, job, 3, rng));
  CHECK(pods == std::vector<int>{0, 1, 2, 0, 1, 2, 0});
  CHECK((rng == untouched)); // parenthesised: doctest cannot print an engine
}

TEST_CASE("random spreads connections evenly over the pods") {
  // 30,000 connections on 3 pods: 10,000 each expected, binomial sd sqrt(30000 x 1/3 x 2/3) = 82; 4 sd = 330.
  auto rng = make_stream(1, stream_load_balancer);
  std::vector<int> per_pod(3, 0);
  for (int job = 0; job < 30000; ++job) {
    const int pod = choose_pod(LoadBalancer::random, job, 3, rng);
    REQUIRE(pod >= 0);
    REQUIRE(pod < 3);
    ++per_pod[static_cast<std::size_t>(pod)];
  }
  for (const int count : per_pod)
    CHECK(std::abs(count - 10000) < 330);
  CHECK(std::string(load_balancer_name(LoadBalancer::round_robin)) == "round_robin");
  CHECK(std::string(load_balancer_name(LoadBalancer::random)) == "random");
}

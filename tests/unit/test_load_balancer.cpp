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

TEST_CASE("least_connections sends a connection to the pod with the fewest open ones, lowest index first") {
  auto rng = make_stream(1, stream_load_balancer);
  const auto untouched = rng;
  ConnectionBalancer balancer(LoadBalancer::least_connections, 3);
  // Four jobs connect: pods 0, 1, 2, then 0 again (all tied at one).
  std::vector<int> pods;
  for (int job = 0; job < 4; ++job)
    pods.push_back(balancer.connect(job, 0, rng));
  CHECK(pods == std::vector<int>{0, 1, 2, 0});
  // The job on pod 1 ends: the next connection goes there, not to pod 2 (which still has one).
  balancer.disconnect(1);
  CHECK(balancer.open_connections(1) == 0);
  CHECK(balancer.connect(4, 0, rng) == 1);
  CHECK(balancer.open_connections(0) == 2);
  CHECK((rng == untouched)); // it draws no random numbers
  CHECK(std::string(load_balancer_name(LoadBalancer::least_connections)) == "least_connections");
}

TEST_CASE("ConnectionBalancer with random or round_robin draws exactly as choose_pod does") {
  auto a = make_stream(3, stream_load_balancer), b = make_stream(3, stream_load_balancer);
  ConnectionBalancer random(LoadBalancer::random, 5), round_robin(LoadBalancer::round_robin, 5);
  for (int job = 0; job < 50; ++job) {
    CHECK(random.connect(job, 0, a) == choose_pod(LoadBalancer::random, job, 5, b));
    CHECK(round_robin.connect(job, 0, a) == job % 5);
  }
}

TEST_CASE("client_node connects every job to the fallback server on its own worker node, drawing nothing") {
  auto rng = make_stream(2, stream_load_balancer);
  const auto untouched = rng;
  ConnectionBalancer balancer(LoadBalancer::client_node, 4);
  // Jobs 0..7 with two per node: workers 0,0,1,1,2,2,3,3, whatever the job number.
  for (int job = 0; job < 8; ++job)
    CHECK(balancer.connect(100 + job, job / 2, rng) == job / 2);
  CHECK(balancer.open_connections(3) == 2);
  CHECK((rng == untouched));
  CHECK(std::string(load_balancer_name(LoadBalancer::client_node)) == "client_node");
}

// The proxy's choice per request (sim/policy/proxy_balancer.hpp), on hand-made pod states.
#include "sim/policy/proxy_balancer.hpp"
#include "sim/random/random_streams.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace sonicsim;

TEST_CASE("proxy round robin takes the serving pods in turn, skipping the others") {
  ProxyBalancer proxy(ProxyBalancing::round_robin, 2);
  auto rng = make_stream(1, stream_load_balancer);
  const std::vector<int> serving{0, 2, 3}; // pod 1 starts, drains or failed
  const std::vector<int> outstanding(4, 0);
  std::vector<int> chosen;
  for (int r = 0; r < 5; ++r)
    chosen.push_back(*proxy.choose(serving, outstanding, std::nullopt, rng));
  CHECK(chosen == std::vector<int>{0, 2, 3, 0, 2});
}

TEST_CASE("proxy least request scans every pod when choice_count covers them") {
  ProxyBalancer proxy(ProxyBalancing::least_request, 3);
  auto rng = make_stream(1, stream_load_balancer);
  const auto untouched = rng;
  // Outstanding 4, 1, 1: the fewest is 1, pods 1 and 2 tie: the lower number.
  CHECK(*proxy.choose({0, 1, 2}, {4, 1, 1}, std::nullopt, rng) == 1);
  // A retry on another server avoids pod 1: pod 2.
  CHECK(*proxy.choose({0, 1, 2}, {4, 1, 1}, 1, rng) == 2);
  CHECK((rng == untouched)); // a full scan draws nothing
}

TEST_CASE("proxy least request with two choices never picks the busier of its two draws") {
  ProxyBalancer proxy(ProxyBalancing::least_request, 2);
  auto rng = make_stream(7, stream_load_balancer);
  // Pod 0 has 100 outstanding, the others none: pod 0 is chosen only when both draws are pod 0, with
  // probability (1/4)^2 = 1/16 over 4 pods. Over 16,000 requests: 1,000 expected, sd sqrt(16000 x 1/16 x
  // 15/16) = 30.6; 4 sd either side.
  int zero = 0;
  for (int r = 0; r < 16000; ++r)
    zero += *proxy.choose({0, 1, 2, 3}, {100, 0, 0, 0}, std::nullopt, rng) == 0 ? 1 : 0;
  CHECK(zero > 1000 - 123);
  CHECK(zero < 1000 + 123);
}

TEST_CASE("proxy with no serving pod answers none; the only pod is kept even when avoided") {
  ProxyBalancer proxy(ProxyBalancing::random, 2);
  auto rng = make_stream(1, stream_load_balancer);
  CHECK_FALSE(proxy.choose({}, {0, 0}, std::nullopt, rng).has_value());
  CHECK(*proxy.choose({1}, {0, 0}, 1, rng) == 1);
}

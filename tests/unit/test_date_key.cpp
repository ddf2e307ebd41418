// The calendar's dates as integers (sim/kernel/date_key.hpp): the keys order as the dates do, equal dates
// (0.0 and -0.0 included) give equal keys, and a key gives its date back bit for bit.
#include "sim/kernel/date_key.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using sonicsim::date_from_key;
using sonicsim::date_key;

TEST_CASE("date keys order as the dates, equal dates tie, and give their dates back") {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> dates{-inf,
                            -1e300,
                            -1.0,
                            -1e-9,
                            -std::numeric_limits<double>::denorm_min(),
                            -0.0,
                            0.0,
                            std::numeric_limits<double>::denorm_min(),
                            1e-9,
                            1.0,
                            1.0 + 1e-15,
                            3600.0,
                            std::nextafter(3600.0, inf),
                            1e300,
                            inf};
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> around(-10.0, 1e6);
  for (int i = 0; i < 2000; ++i)
    dates.push_back(around(rng));
  for (const double a : dates)
    for (const double b : {dates[0], dates[5], dates[6], dates[9], dates[12], dates[100], dates[1000]}) {
      CAPTURE(a);
      CAPTURE(b);
      CHECK((date_key(a) < date_key(b)) == (a < b));
      CHECK((date_key(a) == date_key(b)) == (a == b));
    }
  for (const double a : dates) {
    const double back = date_from_key(date_key(a));
    const double expected = a + 0.0; // -0.0 comes back as 0.0
    CHECK(std::memcmp(&back, &expected, sizeof back) == 0);
  }
  CHECK(date_key(-0.0) == date_key(0.0));
}

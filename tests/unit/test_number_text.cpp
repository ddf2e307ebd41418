#include "sim/metrics/number_text.hpp"

#include <doctest/doctest.h>

#include <limits>

using sonicsim::significant;

TEST_CASE("times keep four significant digits whatever their magnitude") {
  CHECK(significant(110.2049) == "110.2");
  CHECK(significant(11.934) == "11.93");
  CHECK(significant(0.012341) == "0.01234"); // a CMS model's milliseconds stay readable
  CHECK(significant(0.00012349) == "0.0001235");
  CHECK(significant(12345.6) == "12346"); // no decimals beyond the units
  CHECK(significant(-2.5) == "-2.500");
  CHECK(significant(0.0) == "0");
  CHECK(significant(std::numeric_limits<double>::infinity()) == "inf");
  CHECK(sonicsim::gbps_text(1.47059e9) == "1.471 Gb/s"); // not "1.47059e+09 bit/s"
}

// Strings with units -> SI values, and the errors for strings that are not what a field expects.
#include <doctest/doctest.h>

#include <string>

#include "sim/scenario/units.hpp"

using namespace sonicsim;

namespace {
std::string unit_error(double (*parse)(const std::string&), const std::string& text) {
  try {
    parse(text);
  } catch (const UnitError& e) {
    return e.what();
  }
  return "no error";
}
} // namespace

TEST_CASE("scenario units: durations in every unit become seconds") {
  CHECK(parse_duration_s("12ms") == doctest::Approx(0.012));
  CHECK(parse_duration_s("110s") == 110.0);
  CHECK(parse_duration_s("100us") == doctest::Approx(1e-4));
  CHECK(parse_duration_s("100\xC2\xB5s") == doctest::Approx(1e-4)); // µs
  CHECK(parse_duration_s("250ns") == doctest::Approx(2.5e-7));
  CHECK(parse_duration_s("1.5min") == 90.0); // 1.5 x 60 s
  CHECK(parse_duration_s("2h") == 7200.0);   // 2 x 3600 s
  CHECK(parse_duration_s("0s") == 0.0);
  CHECK(parse_duration_s("3.873ms") == doctest::Approx(0.003873));
  CHECK(parse_duration_s(" 12 ms ") == doctest::Approx(0.012)); // spaces around and before the unit are fine
  CHECK(parse_duration_s("1e-3s") == doctest::Approx(0.001));
}

TEST_CASE("scenario units: sizes use SI prefixes for kB/MB/GB and powers of 1024 for KiB/MiB/GiB") {
  CHECK(parse_bytes("9216B") == 9216.0);
  CHECK(parse_bytes("2kB") == 2000.0);
  CHECK(parse_bytes("3MB") == 3e6);
  CHECK(parse_bytes("4MiB") == 4.0 * 1024 * 1024);
  CHECK(parse_bytes("1.5GB") == 1.5e9);
  CHECK(parse_bytes("1GiB") == 1073741824.0);
  CHECK(parse_bytes("2TB") == 2e12);
  CHECK(parse_bytes("1KiB") == 1024.0);
  CHECK(parse_bytes("0B") == 0.0);
}

TEST_CASE("scenario units: bandwidths in bits per second, and bytes per second times 8") {
  CHECK(parse_bandwidth_bps("10Gbps") == 10e9);
  CHECK(parse_bandwidth_bps("100Gb/s") == 100e9);
  CHECK(parse_bandwidth_bps("2Gbit/s") == 2e9);
  CHECK(parse_bandwidth_bps("500Mbps") == 500e6);
  CHECK(parse_bandwidth_bps("64kbps") == 64e3);
  CHECK(parse_bandwidth_bps("1Tbps") == 1e12);
  CHECK(parse_bandwidth_bps("9600bps") == 9600.0);
  CHECK(parse_bandwidth_bps("1.25GBps") == doctest::Approx(10e9)); // 1.25e9 B/s x 8 bit/B
  CHECK(parse_bandwidth_bps("1.25GB/s") == doctest::Approx(10e9));
  CHECK(parse_bandwidth_bps("0Gbps") == 0.0);
}

TEST_CASE("scenario units: plain numbers and integers") {
  CHECK(parse_number("0.64") == 0.64);
  CHECK(parse_number("55000") == 55000.0);
  CHECK(parse_number("1e3") == 1000.0);
  CHECK(parse_number("-2") == -2.0);
  CHECK(parse_integer("16384") == 16384);
  CHECK(parse_integer("1e3") == 1000);
}

TEST_CASE("scenario units: a bare number where a unit is required is an error that shows an example") {
  CHECK(unit_error(parse_duration_s, "12") ==
        "expected a duration with a unit, e.g. \"12ms\"; got the bare number \"12\"");
  CHECK(unit_error(parse_bytes, "9216").find("expected a size in bytes with a unit, e.g. \"9216B\"") == 0);
  CHECK(unit_error(parse_bandwidth_bps, "10e9").find("expected a bandwidth with a unit, e.g. \"10Gbps\"") ==
        0);
}

TEST_CASE("scenario units: unknown units, missing numbers and junk are errors naming the text") {
  CHECK(unit_error(parse_duration_s, "12sec") == "unknown duration unit 'sec' in \"12sec\"; expected a "
                                                 "duration with a unit, e.g. \"12ms\" (units: ns, us, ms, "
                                                 "s, min, h)");
  CHECK(unit_error(parse_duration_s, "ms").find("got \"ms\"") != std::string::npos);
  CHECK(unit_error(parse_duration_s, "").find("expected a duration") == 0);
  CHECK(unit_error(parse_duration_s, "inf s").find("got \"inf s\"") != std::string::npos);
  CHECK(unit_error(parse_bytes, "kB").find("got \"kB\"") != std::string::npos); // a unit needs a number
  CHECK(unit_error(parse_bandwidth_bps, "10Gbs").find("unknown bandwidth unit 'Gbs'") == 0);
  CHECK(unit_error(parse_bandwidth_bps, "10 Gigabit").find("unknown bandwidth unit 'Gigabit'") == 0);
}

TEST_CASE("scenario units: the two common size slips get a precise hint") {
  CHECK(unit_error(parse_bytes, "3KB").find("'KB' is ambiguous: write 'kB' (1000 B) or 'KiB' (1024 B)") !=
        std::string::npos);
  CHECK(unit_error(parse_bytes, "9216b").find("a lowercase 'b' means bits: write 'B' for bytes") !=
        std::string::npos);
}

TEST_CASE("scenario units: numbers with a unit, and non-integers where an integer is expected, are errors") {
  CHECK(unit_error(parse_number, "5ms") ==
        "expected a plain number without a unit; got \"5ms\" (unexpected 'ms')");
  CHECK(unit_error(parse_number, "abc") == "expected a number, e.g. \"0.5\"; got \"abc\"");
  auto integer_error = [](const std::string& text) {
    try {
      parse_integer(text);
    } catch (const UnitError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(integer_error("1.5") == "expected an integer, e.g. \"4\"; got \"1.5\"");
  CHECK(integer_error("four") == "expected an integer, e.g. \"4\"; got \"four\"");
  CHECK(integer_error("1e300").find("integer out of range") == 0);
}

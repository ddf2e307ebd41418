#include "sim/text/csv.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

TEST_CASE("CSV fields are quoted per RFC 4180 and read back as written") {
  using sonicsim::csv_field;
  CHECK(csv_field("EmTrkMichelId_s") == "EmTrkMichelId_s");   // plain text stays as it is
  CHECK(csv_field("reco, part 1_s") == "\"reco, part 1_s\""); // a comma quotes the field
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");     // quotes are doubled
  const std::string line = "job," + csv_field("a,b") + "," + csv_field("q\"") + ",x";
  CHECK(sonicsim::split_csv_line(line) == std::vector<std::string>{"job", "a,b", "q\"", "x"});
  CHECK_THROWS(sonicsim::split_csv_line("\"open"));
}

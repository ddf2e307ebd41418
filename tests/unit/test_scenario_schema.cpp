// The schema (sim/scenario/schema.cpp) is the one list of known keys; these tests keep the reference
// documentation in step with it and check the key-suggestion rule.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "sim/scenario/schema.hpp"

using namespace sonicsim;

namespace {

void collect_keys(const schema::Node& node, std::vector<std::string>& keys) {
  for (const auto& [key, child] : node.fields) {
    keys.push_back(key);
    collect_keys(*child, keys);
  }
  if (node.element) collect_keys(*node.element, keys);
}

} // namespace

TEST_CASE("scenario schema: every key is documented in docs/scenario_reference.md") {
  std::ifstream in(std::string(SONICSIM_SOURCE_DIR) + "/docs/scenario_reference.md");
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  std::vector<std::string> keys;
  collect_keys(schema::root(), keys);
  CHECK(keys.size() > 50); // the whole tree was walked
  for (const auto& key : keys) {
    // Documented keys appear in code spans, alone or as the end of a path: `jobs`, `client.retries`.
    const bool documented =
        doc.find("`" + key + "`") != std::string::npos || doc.find("." + key + "`") != std::string::npos;
    CHECK_MESSAGE(documented, "key '" << key << "' is not in docs/scenario_reference.md");
  }
  for (const auto& kind : schema::distribution_kinds())
    CHECK(doc.find("`" + kind + "`") != std::string::npos);
}

TEST_CASE("scenario schema: suggestions are the nearest key within a third of the word, or a prefix") {
  CHECK(schema::edit_distance("job", "jobs") == 1);
  CHECK(schema::edit_distance("kitten", "sitting") == 3);
  CHECK(schema::suggestion("job", {"jobs", "events_per_job"}) == " (did you mean 'jobs'?)");
  CHECK(schema::suggestion("max_batch", {"max_batch_size", "instances_per_gpu"}) ==
        " (did you mean 'max_batch_size'?)");
  CHECK(schema::suggestion("colour", {"jobs", "pipeline"}) == " (expected one of: jobs, pipeline)");
}

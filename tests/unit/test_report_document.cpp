// The HTML report page: text escaped, the charts' specifications unable to end their script block, one chart
// div per spec.
#include "sim/report/report_document.hpp"

#include <doctest/doctest.h>

using namespace sonicsim::report;

TEST_CASE("a report page escapes text and keeps its specifications inside their script") {
  ReportDocument document("a <b> & \"c\"");
  document.section("run of x<y", "dir/summary.json");
  document.table({{"h"}, {"</script><script>alert(1)"}});
  document.chart(Json{{"title", "</script>"}, {"mark", "point"}});
  document.chart(Json{{"title", "EmTrk<!--<script>"}, {"mark", "line"}});
  document.chart(Json{{"mark", "bar"}});
  const std::string html = document.html("/* library */");
  CHECK(html.find("<title>a &lt;b&gt; &amp; &quot;c&quot;</title>") != std::string::npos);
  CHECK(html.find("<td>&lt;/script&gt;&lt;script&gt;alert(1)</td>") != std::string::npos);
  // The only </script> are the page's own closing tags: error capture, library, charts.
  std::size_t closings = 0;
  for (auto at = html.find("</script>"); at != std::string::npos; at = html.find("</script>", at + 1))
    ++closings;
  CHECK(closings == 3);
  // Every "<" of the embedded data is \u003c: no name can open a comment or a script inside the block.
  CHECK(html.find("\"title\":\"\\u003c/script>\"") != std::string::npos);
  CHECK(html.find("\"title\":\"EmTrk\\u003c!--\\u003cscript>\"") != std::string::npos);
  CHECK(html.find("<!--") == std::string::npos);
  CHECK(html.find("id=\"chart1\"") != std::string::npos);
  CHECK(html.find("id=\"chart2\"") != std::string::npos);
  CHECK(document.chart_count() == 3);
}

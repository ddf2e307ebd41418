#include "sim/report/report_document.hpp"
#include "sim/metrics/json_fields.hpp"

namespace sonicsim::report {

std::string html_escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

void ReportDocument::section(const std::string& heading, const std::string& source) {
  body_ +=
      "<h2>" + html_escaped(heading) + "</h2>\n<p class=\"source\">from " + html_escaped(source) + "</p>\n";
}

void ReportDocument::paragraph(const std::string& text) {
  body_ += "<p>" + html_escaped(text) + "</p>\n";
}

void ReportDocument::bullets(const std::vector<std::string>& lines) {
  if (lines.empty()) return;
  body_ += "<ul>\n";
  for (const auto& line : lines)
    body_ += "<li>" + html_escaped(line) + "</li>\n";
  body_ += "</ul>\n";
}

void ReportDocument::table(const std::vector<std::vector<std::string>>& rows) {
  if (rows.empty()) return;
  body_ += "<table>\n";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    body_ += "<tr>";
    for (const auto& cell : rows[r])
      body_ += (r == 0 ? "<th>" : "<td>") + html_escaped(cell) + (r == 0 ? "</th>" : "</td>");
    body_ += "</tr>\n";
  }
  body_ += "</table>\n";
}

void ReportDocument::chart(Json spec) {
  const std::string id = "chart" + std::to_string(charts_.size() + 1);
  body_ += "<div class=\"chart\" id=\"" + id + "\"></div>\n";
  charts_.push_back(std::move(spec));
}

namespace {

// Records every error the page meets, before anything else runs.
const char* const error_capture = R"(
window.sonicsimErrors = [];
window.addEventListener('error', (e) => window.sonicsimErrors.push(String(e.message || e)));
window.addEventListener('unhandledrejection', (e) => window.sonicsimErrors.push(String(e.reason)));
const sonicsimConsoleError = console.error;
console.error = (...args) => { window.sonicsimErrors.push(args.map(String).join(' ')); sonicsimConsoleError(...args); };
)";

// Draws every chart as SVG, then counts each chart's marks (the elements inside Vega's mark groups).
const char* const draw_charts = R"(
const sonicsimDrawn = sonicsimSpecs.map((spec, i) =>
  vegaEmbed('#chart' + (i + 1), spec, {renderer: 'svg', actions: false, tooltip: true}));
Promise.allSettled(sonicsimDrawn).then((results) => {
  const empty = [];
  results.forEach((r, i) => {
    if (r.status === 'rejected') { window.sonicsimErrors.push('chart' + (i + 1) + ': ' + r.reason); return; }
    // Every data layer (not a rule or a label) must have drawn something visible: an element with an area
    // (bars, points, bands) or, for lines, a length.
    const groups = document.querySelectorAll('#chart' + (i + 1) + ' svg g.role-mark');
    let layers = 0;
    groups.forEach((g) => {
      if (/mark-(rule|text)/.test(g.getAttribute('class'))) return;
      layers += 1;
      const line = /mark-line/.test(g.getAttribute('class'));
      const drawn = Array.from(g.children).some((e) => {
        const box = e.getBBox();
        return line ? box.width + box.height > 0 : box.width * box.height > 0;
      });
      if (!drawn) empty.push('chart' + (i + 1) + ' layer ' + g.getAttribute('class'));
    });
    if (layers === 0) empty.push('chart' + (i + 1) + ' (no data layer)');
  });
  document.body.dataset.charts = String(sonicsimSpecs.length);
  document.body.dataset.emptyCharts = JSON.stringify(empty);
  document.body.dataset.errors = JSON.stringify(window.sonicsimErrors);
  document.body.dataset.done = '1';
});
)";

const char* const style = R"(
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
p.source { color: #666; font-size: 0.9em; margin-top: -0.5em; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.92em; }
th, td { border: 1px solid #ddd; padding: 0.3em 0.6em; text-align: left; }
th { background: #f3f3f3; } .chart { margin: 1.5em 0; }
)";

} // namespace

std::string ReportDocument::html(const std::string& javascript) const {
  Json specs = Json::array();
  for (const auto& spec : charts_)
    specs.push_back(spec);
  // Any "<" inside a script block may change how the page parses ("</script>" ends the block, "<!--<script>"
  // makes the next "</script>" not end it): JSON spells it \u003c. In JSON a "<" can only be inside a string.
  const std::string dumped = json_text(specs);
  std::string specs_text;
  specs_text.reserve(dumped.size());
  for (const char c : dumped) {
    if (c == '<')
      specs_text += "\\u003c";
    else
      specs_text += c;
  }
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
         html_escaped(title_) + "</title>\n<style>" + style + "</style>\n<script>" + error_capture +
         "</script>\n<script>\n" + javascript + "\n</script>\n</head>\n<body>\n<h1>" + html_escaped(title_) +
         "</h1>\n" + body_ + "<script>\nconst sonicsimSpecs = " + specs_text + ";\n" + draw_charts +
         "</script>\n</body>\n</html>\n";
}

} // namespace sonicsim::report

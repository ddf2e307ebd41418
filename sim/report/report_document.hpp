// One self-contained HTML report: sections of text, tables and Vega-Lite charts, with the plotting library
// inlined so that the file opens offline in any browser, no server needed. Pure code.
//
// The page checks itself as it loads: every chart is drawn as SVG, and when all are drawn the body carries
// data-charts (how many), data-empty-charts (ids of charts that drew no mark) and data-errors (script errors,
// rejected promises and console errors, as JSON): what the browser test (tests/report/) reads.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sonicsim::report {

using Json = nlohmann::ordered_json;

class ReportDocument {
public:
  explicit ReportDocument(std::string title) : title_(std::move(title)) {}
  void section(const std::string& heading, const std::string& source);
  void paragraph(const std::string& text);
  // A list of lines (assumptions, warnings), each shown as written.
  void bullets(const std::vector<std::string>& lines);
  // The first row is the header.
  void table(const std::vector<std::vector<std::string>>& rows);
  // A Vega-Lite specification (its data inline).
  void chart(Json spec);
  std::size_t chart_count() const { return charts_.size(); }
  // The whole page, with `javascript` (report_javascript()) inlined.
  std::string html(const std::string& javascript) const;

private:
  std::string title_;
  std::string body_;
  std::vector<Json> charts_;
};

// Text for HTML element content and attribute values.
std::string html_escaped(const std::string& text);

} // namespace sonicsim::report

#include "sim/scenario/supersonic_query.hpp"

#include <algorithm>
#include <cctype>
#include <regex>

namespace sonicsim {

std::optional<QueueTimeQuery> recognise_queue_time_query(const std::string& query) {
  std::string text = query;
  text.erase(std::remove_if(text.begin(), text.end(), [](unsigned char ch) { return std::isspace(ch); }),
             text.end());
  // A series selector (any labels) and its rate() window, captured.
  static const std::string selector = R"((?:\{[^}]*\})?\[([0-9]+(?:ms|s|m|h|d))\])";
  // sum by (release) (rate(queue[w])) / sum by (release) ((rate(exec[w]) * 1000) + 0.001)
  static const std::regex ratio_of_sums(
      R"(^sumby\(release\)\(rate\(nv_inference_queue_duration_us)" + selector +
      R"(\)\)/sumby\(release\)\(\(?rate\(nv_inference_exec_count)" + selector + R"(\)\*1000\)?\+0\.001\)$)");
  // sum by (release) (rate(queue[w]) / (rate(exec[w]) * 1000 + 0.001))
  static const std::regex sum_of_ratios(R"(^sumby\(release\)\(rate\(nv_inference_queue_duration_us)" +
                                        selector + R"(\)/\(rate\(nv_inference_exec_count)" + selector +
                                        R"(\)\*1000\+0\.001\)\)$)");
  std::smatch match;
  QueueTimeQuery form;
  if (std::regex_match(text, match, ratio_of_sums)) {
    form.aggregation = MetricAggregation::ratio_of_sums;
  } else if (std::regex_match(text, match, sum_of_ratios)) {
    form.aggregation = MetricAggregation::sum_of_ratios;
  } else {
    return std::nullopt;
  }
  form.queue_window = match[1].str();
  form.executions_window = match[2].str();
  return form;
}

std::optional<double> prometheus_duration_s(const std::string& text) {
  static const std::regex form(R"(^([0-9]+)(ms|s|m|h|d)$)");
  std::smatch match;
  if (!std::regex_match(text, match, form)) return std::nullopt;
  const double n = std::stod(match[1].str());
  const std::string unit = match[2].str();
  const double scale = unit == "ms" ? 1e-3 : unit == "s" ? 1 : unit == "m" ? 60 : unit == "h" ? 3600 : 86400;
  return n * scale;
}

} // namespace sonicsim

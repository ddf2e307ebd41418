// The plan's page, for the person who acts on it: the answer (or why there is none), its bill, the options
// searched with what each rests on, the candidates against the targets in one panel per device type, and the
// saturation order. Drawn from plan.json.
#include "sim/metrics/figure_table.hpp"
#include "sim/report/report_sections.hpp"

#include "sim/metrics/json_fields.hpp"
#include "sim/metrics/number_text.hpp"
#include "sim/report/vega_lite.hpp"

namespace sonicsim::report {
namespace {

namespace fs = std::filesystem;

std::string answer_text(const Json& plan) {
  if (!plan.value("found", false))
    return "no configuration meets the targets: " + plan.value("reason", std::string("(no reason given)"));
  if (plan.contains("groups")) {
    std::string text;
    for (const auto& g : plan.at("groups"))
      text += (text.empty() ? "" : "; ") + std::to_string(g.at("devices").get<int>()) + " x " +
              g.at("device_type").get<std::string>() + " for " + g.at("group").get<std::string>() +
              " (the scenario has " + std::to_string(g.at("scenario_devices").get<int>()) + ")";
    return text;
  }
  const Json& p = plan.at("plan");
  return std::to_string(p.at("gpus").get<int>()) + " x " + p.at("device_type").get<std::string>() + " in " +
         std::to_string(p.at("pods").get<int>()) + " pod(s) for " + std::to_string(p.at("jobs").get<int>()) +
         " jobs";
}

std::string assumption_text(const Json& entry) {
  for (const auto& [kind, text] : entry.items())
    if (kind != "key")
      return entry.at("key").get<std::string>() + " (" + kind + "): " + text.get<std::string>();
  return entry.at("key").get<std::string>();
}

// The bill at the answer: each item, how it was held, its price and share.
void add_bill(ReportDocument& document, const Json& bill) {
  if (!bill.is_object()) {
    document.paragraph("Bill: no prices in the scenario (costs: device_hour, cpu_hour, pod_hour).");
    return;
  }
  std::vector<std::vector<std::string>> rows{
      {"item", "held", "count", "USD/h each", "USD/h", "USD/event", "share"}};
  for (const auto& item : bill.at("items"))
    rows.push_back({item.at("item").get<std::string>(), item.value("held", std::string()),
                    significant(item.at("count").get<double>(), 4),
                    significant(item.at("usd_per_hour_each").get<double>(), 4),
                    significant(item.at("usd_per_hour").get<double>(), 4),
                    significant(item.at("usd_per_event").get<double>(), 4),
                    significant(100.0 * item.at("share").get<double>(), 3) + " %"});
  rows.push_back({"total", "", "", "", significant(bill.at("usd_per_hour").get<double>(), 4),
                  significant(bill.at("usd_per_event").get<double>(), 4), "100 %"});
  document.paragraph("Bill at the answer, at " + significant(bill.at("events_per_s").get<double>(), 4) +
                     " events/s:");
  document.table(rows);
  std::vector<std::string> unpriced;
  for (const auto& u : bill.at("unpriced"))
    unpriced.push_back("not priced: " + u.get<std::string>());
  if (!unpriced.empty()) document.bullets(unpriced);
}

// Every option searched (device type x pod NIC): its answer, cost, verdict and what it rests on.
void add_options(ReportDocument& document, const Json& plan) {
  if (!plan.contains("options") || plan.at("options").empty()) return;
  std::vector<std::vector<std::string>> rows{{"device type", "pod NIC (Gb/s)", "answer",
                                              figure_title(Figure::cost_usd_per_event), "verdict",
                                              "rests on"}};
  for (const auto& o : plan.at("options")) {
    std::string rests;
    const Json option_assumptions = o.value("assumptions", Json::array());
    for (const auto& a : option_assumptions)
      rests += (rests.empty() ? "" : "; ") + assumption_text(a);
    const Json& cost = o.at("cost_usd_per_event");
    const bool most_jobs = plan.value("mode", "") == "most_jobs";
    const int at_least = o.value("at_least_jobs", 0);
    const int at_least_gpus = o.value("left_unsized", false) ? o.value("at_least_gpus", 0) : 0;
    const std::string answer =
        o.at("found").get<bool>() ? (most_jobs ? std::to_string(o.at("jobs").get<int>()) + " jobs"
                                               : std::to_string(o.at("gpus").get<int>()) + " GPUs")
        : at_least > 0            ? "at least " + std::to_string(at_least) + " jobs"
        : at_least_gpus > 0       ? "at least " + std::to_string(at_least_gpus) + " GPUs, not sized"
                                  : "none";
    rows.push_back({o.at("device_type").get<std::string>(),
                    significant(o.at("nic_bps").get<double>() / 1e9, 4), answer,
                    cost.is_object() ? significant(cost.at("mean").get<double>(), 4) : "-",
                    o.at("chosen").get<bool>() ? "chosen" : o.at("reason").get<std::string>(),
                    rests.empty() ? "measured values only" : rests});
  }
  document.paragraph("Options searched:");
  document.table(rows);
}

// Each candidate's value of each target with its interval, one panel per device type (their GPU counts are
// not on one scale).
void add_candidates(ReportDocument& document, const Json& plan) {
  Json values = Json::array();
  for (const auto& run : plan.at("runs")) {
    // A per-group plan's candidate: its devices over every group.
    int gpus = run.value("gpus", 0);
    const Json group_devices =
        run.value("group_devices", Json::object()); // kept: items() of a temporary dangles
    for (const auto& [group, devices] : group_devices.items())
      gpus += devices.get<int>();
    const Json checks = run.value("checks", Json::array());
    for (const auto& check : checks) {
      const Json& v = check.at("value");
      values.push_back({{"mean", v.at("mean")},
                        {"low", v.at("ci95_low")},
                        {"high", v.at("ci95_high")},
                        {"gpus", gpus},
                        {"device type", run.value("device_type", std::string("every group"))},
                        {"decision", check.at("decision")},
                        {"target", check.at("target").get<std::string>() +
                                       (check.value("scope", std::string()).empty()
                                            ? ""
                                            : " (" + check.at("scope").get<std::string>() + ")")}});
    }
  }
  if (values.empty()) return;
  Json chart{{"$schema", "https://vega.github.io/schema/vega-lite/v5.json"},
             {"title", "Candidates against each target (95 % intervals), one panel per device type"},
             {"data", {{"values", values}}},
             {"facet",
              {{"column", {{"field", "device type"}, {"type", "nominal"}, {"title", "device type"}}},
               {"row", {{"field", "target"}, {"type", "nominal"}, {"title", "target"}}}}},
             {"resolve", {{"scale", {{"x", "independent"}, {"y", "independent"}}}}}};
  const Json x =
      channel("gpus", "quantitative", plan.contains("groups") ? "devices over every group" : "GPUs");
  const Json colour{
      {"field", "decision"}, {"type", "nominal"}, {"title", "decision"}, {"legend", legend_outside()}};
  Json spec{{"width", 320}, {"height", 200}, {"layer", Json::array()}};
  spec["layer"].push_back(
      layer("rule", {{"x", x},
                     {"y", channel("low", "quantitative", "value of the target's figure")},
                     {"y2", {{"field", "high"}}},
                     {"color", colour}}));
  Json points = layer(
      "point",
      {{"x", x}, {"y", channel("mean", "quantitative", "value of the target's figure")}, {"color", colour}});
  points["mark"]["filled"] = true;
  points["mark"]["size"] = 60;
  spec["layer"].push_back(points);
  chart["spec"] = spec;
  document.chart(chart);
}

void add_saturation(ReportDocument& document, const Json& plan) {
  if (!plan.contains("saturation")) return;
  Json order = Json::array();
  for (const auto& resource : plan.at("saturation").at("order"))
    order.push_back({{"resource", resource.at("resource").get<std::string>() + " (" +
                                      resource.at("capacity").get<std::string>() + ")"},
                     {"jobs", resource.at("jobs_at_saturation")}});
  Json chart = layered_chart("Saturation order: the jobs at which each resource fills (log scale)", order,
                             640, 40 * static_cast<int>(order.size()));
  const Json y{{"field", "resource"}, {"type", "nominal"}, {"title", "resource"}, {"sort", "x"}};
  const Json x{{"field", "jobs"},
               {"type", "quantitative"},
               {"title", "jobs at saturation"},
               {"scale", {{"type", "log"}}}};
  Json points = layer("point", {{"y", y}, {"x", x}});
  points["mark"]["filled"] = true;
  points["mark"]["size"] = 90;
  chart["layer"].push_back(points);
  Json labels = layer(
      "text",
      {{"y", y}, {"x", x}, {"text", {{"field", "jobs"}, {"type", "quantitative"}, {"format", ",.0f"}}}});
  labels["mark"]["dx"] = 8;
  labels["mark"]["align"] = "left";
  chart["layer"].push_back(labels);
  const double requested = plan.value("requested", 0.0);
  if (requested > 0)
    chart["layer"].push_back(
        labelled_rule_x(requested, "planned: " + significant(requested, 4) + " jobs", "#d9534f"));
  document.chart(chart);
}

} // namespace

// plan --sensitivity's plan_sensitivity.json: the answer at the two ends of each ranged value, as a table and
// a tornado chart (an end where no layout meets the targets is drawn at the answer; the table says "none").
void add_sensitivity(ReportDocument& document, const Json& s) {
  const std::string unit = s.at("unit").get<std::string>();
  const auto count = [](const Json& x) {
    return x.is_number() ? std::to_string(x.get<int>()) : std::string("none");
  };
  document.paragraph(
      "What the answer rests on, ranked (plan --sensitivity): the plan searched again at each end "
      "of each value whose provenance gives a range.");
  std::vector<std::vector<std::string>> rows{
      {"value (kind)", "range", unit + " at low", unit + " at high", "range from"}};
  Json bars = Json::array();
  int rank = 0;
  const double answer = s.at("answer").is_number() ? s.at("answer").get<double>() : 0.0;
  for (const auto& v : s.at("values")) {
    rows.push_back({v.at("key").get<std::string>() + " (" + v.at("kind").get<std::string>() + ")",
                    v.at("low").get<std::string>() + " .. " + v.at("high").get<std::string>(),
                    count(v.at("at_low")), count(v.at("at_high")), v.at("why_range").get<std::string>()});
    const auto end = [answer](const Json& x) { return x.is_number() ? x.get<double>() : answer; };
    const double a = end(v.at("at_low")), b = end(v.at("at_high"));
    bars.push_back({{"label", std::to_string(++rank) + ". " + v.at("key").get<std::string>()},
                    {"rank", rank},
                    {"low", std::min(a, b)},
                    {"high", std::max(a, b)}});
  }
  document.table(rows);
  document.chart(
      tornado_chart("The answer at the two ends of each range, largest swing first", bars, unit, answer));
}

void add_plan_section(ReportDocument& document, const fs::path& dir) {
  const Json plan = read_json_file(dir / "plan.json");
  // The file's name, not the machine's path to it: a page travels.
  document.section("Plan (" + plan.at("mode").get<std::string>() + ")", "plan.json");
  document.paragraph("Answer: " + answer_text(plan) + ".");
  for (const auto& shared : plan.value("shared_modules", Json::array()))
    document.paragraph("Note: " + shared.at("note").get<std::string>() + ".");
  std::vector<std::string> lines;
  for (const auto& t : plan.at("targets"))
    lines.push_back("target: " + t.get<std::string>());
  for (const auto& s : plan.at("searched"))
    lines.push_back("searched: " + s.get<std::string>());
  for (const auto& h : plan.at("held_fixed"))
    lines.push_back("held fixed: " + h.get<std::string>());
  document.bullets(lines);
  if (plan.value("found", false)) add_bill(document, plan.value("cost_bill", Json()));
  add_options(document, plan);
  std::vector<std::string> assumptions;
  const Json answer_assumptions = plan.value("assumptions", Json::array());
  for (const auto& a : answer_assumptions)
    assumptions.push_back(assumption_text(a));
  if (!assumptions.empty()) {
    document.paragraph("The answer rests on these assumed and calibrated values:");
    document.bullets(assumptions);
  }
  add_candidates(document, plan);
  add_saturation(document, plan);
  if (fs::exists(dir / "plan_sensitivity.json"))
    add_sensitivity(document, read_json_file(dir / "plan_sensitivity.json"));
}

} // namespace sonicsim::report

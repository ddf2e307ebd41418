#include "sim/sweep/sweep_json.hpp"

#include <cmath>

namespace sonicsim {
namespace {

// A number, or nothing when it is not one (a figure the point does not define).
void put(nlohmann::ordered_json& json, const char* key, double value) {
  if (std::isfinite(value)) json[key] = value;
}

nlohmann::ordered_json interval(const ConfidenceInterval& value) {
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  put(json, "mean", value.mean);
  if (value.n > 1) {
    put(json, "ci95_low", value.low());
    put(json, "ci95_high", value.high());
  }
  return json;
}

} // namespace

nlohmann::ordered_json sweep_to_json(const std::vector<VaryAxis>& axes, const std::vector<SweepRow>& rows,
                                     const std::vector<CurveFit>& fits) {
  nlohmann::ordered_json out;
  out["varied"] = nlohmann::ordered_json::array();
  for (const auto& axis : axes)
    out["varied"].push_back(axis.key);
  out["points"] = nlohmann::ordered_json::array();
  for (const auto& row : rows) {
    nlohmann::ordered_json point;
    for (std::size_t a = 0; a < axes.size() && a < row.point.values.size(); ++a)
      point["values"][axes[a].key] = row.point.values[a];
    point["jobs"] = row.jobs;
    point["replications"] = row.replications;
    for (const auto& [name, value] : row.simulated)
      point["simulated"][name] = interval(value); // a figure the point does not define is left out
    if (row.analytic) {
      put(point["analytic"], "module_s", row.analytic->sonic_module_s);
      put(point["analytic"], "event_s", row.analytic->sonic_event_s);
      put(point["mva"], "module_s", row.analytic->mva_module_s);
      put(point["mva"], "event_s", row.analytic->mva_event_s);
      put(point["mva"], "events_per_s", row.analytic->mva_events_per_s);
      put(point, "analytic_knee_jobs", row.analytic_knee_jobs);
    }
    put(point, "network_limit_jobs", row.network_limit_jobs);
    point["bottleneck"] = row.bottleneck;
    if (row.too_short > 0) point["replications_too_short"] = row.too_short;
    out["points"].push_back(point);
  }
  out["fits"] = nlohmann::ordered_json::array();
  for (const auto& f : fits) {
    nlohmann::ordered_json fit{{"group", f.group}, {"series", f.series}, {"points", f.points}};
    put(fit, "plateau_s", f.fit.plateau);
    put(fit, "knee_jobs", f.fit.knee);
    put(fit, "slope_s_per_job", f.fit.slope);
    put(fit, "knee_jobs_se", f.fit.knee_se);
    if (f.model_knee_jobs > 0) fit["model_knee_jobs"] = f.model_knee_jobs;
    out["fits"].push_back(fit);
  }
  return out;
}

} // namespace sonicsim

// The --set expressions that put a joint calibration's parameter values into runs (sim/calibration/
// joint_spec.hpp): a parameter's own `set` on the series it acts on, or a prediction's `set` for it.
#include "sim/calibration/joint_spec.hpp"

#include "sim/scenario/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace sonicsim {

std::vector<std::string> parameter_override(const JointParameter& p, const std::string& series,
                                            double value) {
  const bool acts = p.series.empty() || std::find(p.series.begin(), p.series.end(), series) != p.series.end();
  if (!acts) return {};
  return expand_set(p.sets, value);
}

std::vector<std::string> expand_set(const std::vector<std::string>& expressions, double value) {
  auto number = [](double x) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.9g", x);
    return std::string(buffer);
  };
  std::vector<std::string> out;
  for (std::string expression : expressions) {
    for (auto open = expression.find('{'); open != std::string::npos; open = expression.find('{', open)) {
      const auto close = expression.find('}', open);
      const std::string inside = expression.substr(open + 1, close - open - 1);
      std::string replacement;
      if (inside.empty()) {
        replacement = number(value);
      } else if (inside.find('-') != std::string::npos && inside.find_first_of("{: ") == std::string::npos) {
        // The '-' that ends C: before "/N", or the last character.
        const auto shared = inside.rfind("-/");
        const auto minus = shared != std::string::npos ? shared : inside.size() - 1;
        // {C-}: C minus the value; {C-/N}: that shared by N (one measured sum over N equal parts).
        const std::string shape = "{" + inside + "} in '" + expression +
                                  "': expected {}, {C-} or {C-/N} with C and N numbers, N > 0";
        const auto parsed = [&](const std::string& text) {
          std::size_t used = 0;
          double x = 0.0;
          try {
            x = std::stod(text, &used);
          } catch (const std::exception&) {
            used = 0;
          }
          if (text.empty() || used != text.size() || !std::isfinite(x)) throw InputError(shape);
          return x;
        };
        if (inside[minus] != '-') throw InputError(shape);
        const double constant = parsed(inside.substr(0, minus));
        const std::string rest = inside.substr(minus + 1);
        double parts = 1.0;
        if (!rest.empty()) {
          if (rest.front() != '/') throw InputError(shape);
          parts = parsed(rest.substr(1));
          if (!(parts > 0.0)) throw InputError(shape);
        }
        replacement = number((constant - value) / parts);
      } else {
        ++open; // a YAML flow map's brace, not a placeholder
        continue;
      }
      expression.replace(open, close - open + 1, replacement);
      open += replacement.size();
    }
    out.push_back(expression);
  }
  return out;
}

namespace {

// A parameter's expressions through the first of `series` (none: any) it acts on: once per parameter.
std::vector<std::string> override_through_series(const JointParameter& p,
                                                 const std::vector<std::string>& series, double value) {
  for (const auto& name : series.empty() ? std::vector<std::string>{""} : series)
    if (auto expressions = parameter_override(p, name, value); !expressions.empty()) return expressions;
  return {};
}

} // namespace

std::vector<std::string> parameter_overrides(const JointSpec& spec, const std::vector<std::string>& series,
                                             const std::vector<double>& values) {
  std::vector<std::string> overrides;
  for (std::size_t i = 0; i < spec.parameters.size(); ++i) {
    const auto expressions = override_through_series(spec.parameters[i], series, values[i]);
    overrides.insert(overrides.end(), expressions.begin(), expressions.end());
  }
  return overrides;
}

bool acts_on(const JointParameter& p, const std::vector<std::string>& series) {
  if (p.series.empty()) return true;
  for (const auto& name : series)
    if (std::find(p.series.begin(), p.series.end(), name) != p.series.end()) return true;
  return false;
}

std::vector<std::string> prediction_overrides(const JointSpec& spec, const JointPrediction& prediction,
                                              const std::vector<double>& values) {
  std::vector<std::string> overrides;
  for (std::size_t i = 0; i < spec.parameters.size(); ++i) {
    const JointParameter& p = spec.parameters[i];
    const auto own = prediction.set.find(p.fit.key);
    const auto expressions = own != prediction.set.end()
                                 ? expand_set(own->second, values[i])
                                 : override_through_series(p, prediction.series, values[i]);
    overrides.insert(overrides.end(), expressions.begin(), expressions.end());
  }
  // At its assumed value an unknown adds nothing: the runs are those without it (one recipe, one cache
  // entry).
  for (std::size_t j = 0; j < spec.unknowns.size() && spec.parameters.size() + j < values.size(); ++j) {
    const JointUnknown& u = spec.unknowns[j];
    const double value = values[spec.parameters.size() + j];
    if (value == u.assumed || !unknown_acts_on(u, prediction)) continue;
    const auto expressions = expand_set(u.sets, value);
    overrides.insert(overrides.end(), expressions.begin(), expressions.end());
  }
  return overrides;
}

bool acts_on_prediction(const JointParameter& p, const JointPrediction& prediction) {
  return prediction.set.count(p.fit.key) > 0 || acts_on(p, prediction.series);
}

} // namespace sonicsim

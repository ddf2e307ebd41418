#include "sim/app/model_form_json.hpp"

#include "sim/metrics/json_fields.hpp"

namespace sonicsim {

nlohmann::ordered_json model_form_json(const ModelForm& model_form) {
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const auto& p : model_form.held_out)
    points.push_back({{"series", p.series},
                      {"x", p.x},
                      {"measured", p.measured},
                      {"sd", p.sd},
                      {"predicted_without_its_series", p.predicted},
                      {"relative_error", p.relative_error()}});
  return {{"method", "leave_one_series_out"},
          {"left_out", model_form.left_out},
          {"values", model_form.values},
          {"held_out", points},
          {"relative_rms", model_form.relative_rms},
          {"covered", model_form.covered},
          {"coverage", model_form.held_out.empty() ? 0.0
                                                   : static_cast<double>(model_form.covered) /
                                                         static_cast<double>(model_form.held_out.size())}};
}

std::optional<ModelForm> model_form_from_file(const JointSpec& spec, const std::string& path) {
  const JsonFields json = JsonFields::read_file(path);
  if (!json.is_object() || !json.has("model_form")) return std::nullopt;
  const JsonFields form = json.at("model_form");
  ModelForm out;
  const JsonFields fits = form.at("values");
  for (std::size_t f = 0; f < fits.size(); ++f) {
    const JsonFields fit = fits.at(f);
    if (fit.size() != spec.parameters.size())
      fit.fail("the spec's " + std::to_string(spec.parameters.size()) + " parameter value(s)");
    std::vector<double> values;
    for (std::size_t i = 0; i < fit.size(); ++i) {
      values.push_back(fit.at(i).number());
      const auto& bounds = spec.parameters[i].fit;
      if (values.back() < bounds.lower || values.back() > bounds.upper)
        fit.at(i).fail("a value within " + spec.parameters[i].fit.key + "'s bounds");
    }
    out.values.push_back(std::move(values));
    out.left_out.push_back(form.at("left_out").at(f).text());
  }
  out.relative_rms = form.number_or("relative_rms", 0.0);
  out.covered = form.has("covered") ? static_cast<std::size_t>(form.at("covered").integer()) : 0;
  return out;
}

} // namespace sonicsim

// `sonicsim figures`: the figure table, as every command names its figures (summary.json "figures",
// sweep.csv, compare, plan --target, validation observables, calibrate --observable), and the names from
// before the table that are still read.
#include "sim/app/commands.hpp"
#include "sim/app/common/output_options.hpp"
#include "sim/app/common/scenario_source.hpp"
#include "sim/metrics/figure_table.hpp"
#include "sim/metrics/json_fields.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>

namespace sonicsim {
namespace {

struct FiguresArguments {
  bool quiet = false, json = false;
};

int figures(const FiguresArguments& arguments) {
  if (arguments.json) {
    nlohmann::ordered_json out;
    for (const auto& spec : figure_table())
      out["figures"][spec.name] = {{"label", spec.label},
                                   {"unit", spec.unit},
                                   {"better", spec.better == Better::lower ? "lower" : "higher"},
                                   {"per_module", spec.per_module},
                                   {"more_devices_help", spec.more_devices_help},
                                   {"meaning", spec.meaning}};
    for (const auto& old : old_figure_names())
      out["renamed"][old.old_name] = {{"now", spec_of(old.figure).name}, {"where", old.where}};
    std::printf("%s\n", json_text(out, 1).c_str());
    return exit_ok;
  }
  const TextOutput say{!arguments.quiet};
  say("%-24s %-13s %-7s %s\n", "figure", "unit", "better", "meaning");
  for (const auto& spec : figure_table())
    say("%-24s %-13s %-7s %s%s\n", spec.name, spec.unit, spec.better == Better::lower ? "lower" : "higher",
        spec.meaning, spec.per_module ? " [FIGURE:MODULE: of one module]" : "");
  say("\nevery numeric figure over replications: the mean and its 95 %% Student-t interval; the bottleneck: "
      "the resource most replications name\n\nrenamed (the old name is still read, with a notice):\n");
  for (const auto& old : old_figure_names())
    say("  %-24s -> %-20s %s\n", old.old_name, spec_of(old.figure).name, old.where);
  return exit_ok;
}

} // namespace

void register_figures_command(CLI::App& app, int& result) {
  auto arguments = std::make_shared<FiguresArguments>();
  auto* command = app.add_subcommand(
      "figures", "The figures sonicsim reports, one name, unit and meaning each, as --target, --observable, "
                 "validation cases and every output file name them; and the names they replaced");
  add_output_options(*command, arguments->quiet, &arguments->json);
  command->callback([arguments, &result]() { result = guarded(*arguments, figures); });
}

} // namespace sonicsim

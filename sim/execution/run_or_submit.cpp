#include "sim/execution/run_or_submit.hpp"

#include "sim/execution/cluster.hpp"
#include "sim/execution/local_pool.hpp"
#include "sim/execution/process_arguments.hpp"
#include "sim/execution/progress.hpp"
#include "sim/execution/shell_commands.hpp"

#include <cstdio>
#include <stdexcept>

namespace sonicsim {

std::optional<std::vector<SimulationOutcome>> run_or_submit(const ExecutionContext& context,
                                                            const std::vector<SimulationRequest>& requests,
                                                            const OnOutcome& on_outcome) {
  const ExecutionOptions& options = context.options;
  if (!options.on_cluster())
    return run_here(requests, options.parallel, context.label, options.quiet, on_outcome);
  const auto cluster = make_cluster(options, context.work_dir, context.label);
  std::vector<SimulationOutcome> outcomes;
  switch (options.mode) {
  case ClusterMode::submit:
  case ClusterMode::dry_run: {
    const Submission submission =
        cluster->submit(requests, repeat_command({mode_flag(options.system, ClusterMode::collect)}));
    if (submission.merge_job.empty()) {
      cluster->print_dry_run(submission);
    } else {
      std::printf("submitted: array job %s, merge job %s (after the array; it writes %s)\n",
                  submission.array_job.empty() ? "none (every simulation has its result)"
                                               : submission.array_job.c_str(),
                  submission.merge_job.c_str(), context.merged_outputs.c_str());
      std::printf("follow with: sonicsim status %s\n", shell_quote(context.work_dir.string()).c_str());
    }
    return std::nullopt;
  }
  case ClusterMode::wait:
    outcomes = cluster->run(requests);
    break;
  case ClusterMode::collect:
    outcomes = cluster->collect(requests);
    break;
  }
  if (on_outcome)
    for (std::size_t k = 0; k < outcomes.size(); ++k)
      on_outcome(k, outcomes[k]);
  return outcomes;
}

bool submit_as_driver(const ExecutionContext& context, const std::string& outputs) {
  if (!context.options.on_cluster() || context.options.mode != ClusterMode::submit) return false;
  const auto cluster = make_cluster(context.options, context.work_dir, context.label);
  const std::string job =
      cluster->submit_driver(repeat_command({mode_flag(context.options.system, ClusterMode::wait)}));
  std::printf("submitted: %s driver job %s; it submits each batch as a job array and writes %s\n",
              context.label.c_str(), job.c_str(), outputs.c_str());
  std::printf("follow with: sonicsim status %s\n", shell_quote(context.work_dir.string()).c_str());
  return true;
}

std::vector<SimulationOutcome> run_batch(const ExecutionContext& context,
                                         const std::vector<SimulationRequest>& requests,
                                         const OnOutcome& on_outcome) {
  if (!context.options.on_cluster())
    return context.progress ? run_here(requests, context.options.parallel, *context.progress, on_outcome)
                            : run_here(requests, context.options.parallel, context.label,
                                       context.options.quiet, on_outcome);
  if (context.options.mode != ClusterMode::wait)
    throw std::logic_error("run_batch: a deciding command runs its batches with ClusterMode::wait");
  // On a cluster the batch is one array waited for as a whole: the command's line counts it when it ends.
  const std::size_t done_before = context.progress ? context.progress->total() : 0;
  if (context.progress) context.progress->add(requests.size());
  auto outcomes = make_cluster(context.options, context.work_dir, context.label)->run(requests);
  if (context.progress) context.progress->update(done_before + requests.size());
  return outcomes;
}

} // namespace sonicsim

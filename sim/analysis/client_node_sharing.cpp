#include "sim/analysis/client_node_sharing.hpp"

#include "sim/policy/node_sharing.hpp"

#include <algorithm>
#include <cmath>

namespace sonicsim::analysis {
namespace {

// E[1 / factor] for a piece of work (an inference piece when `self_inference`) when each of `others`
// threads is in CPU work with probability f_cpu and in inference with probability f_inference: a sum over
// the multinomial counts of the others' states.
double mean_slowdown(const ClientNode& node, int others, double f_cpu, double f_inference,
                     bool self_inference) {
  const double f_idle = std::max(0.0, 1.0 - f_cpu - f_inference);
  const double log_whole = std::lgamma(others + 1.0);
  double total = 0.0, weight = 0.0;
  for (int c = 0; c <= others; ++c)
    for (int i = 0; c + i <= others; ++i) {
      const int idle = others - c - i;
      // log of the multinomial probability; a zero share with a non-zero count has probability 0.
      if ((c > 0 && f_cpu <= 0.0) || (i > 0 && f_inference <= 0.0) || (idle > 0 && f_idle <= 0.0)) continue;
      double log_p = log_whole - std::lgamma(c + 1.0) - std::lgamma(i + 1.0) - std::lgamma(idle + 1.0);
      if (c > 0) log_p += c * std::log(f_cpu);
      if (i > 0) log_p += i * std::log(f_inference);
      if (idle > 0) log_p += idle * std::log(f_idle);
      const double p = std::exp(log_p);
      const double factor = thread_speed_factor(node, 1 + c + i, i + (self_inference ? 1 : 0));
      total += p / factor;
      weight += p;
    }
  return weight > 0.0 ? total / weight : 1.0;
}

} // namespace

ClientNodeSlowdown client_node_slowdown(const ClientNode& node, int threads_on_node, double cpu_work_s,
                                        double inference_work_s, double wait_s) {
  ClientNodeSlowdown out;
  out.threads_on_node = std::max(1, threads_on_node);
  if (!node.enabled()) return out;
  const int others = out.threads_on_node - 1;
  // The fixed point of shares and slowdowns: slower work fills more of the event. The map is monotone and
  // bounded (the slowdown at a node whose threads are always busy), so plain iteration with damping settles
  // it; 200 steps reach 1e-12 on every shipped client node.
  for (int step = 0; step < 200; ++step) {
    const double t_cpu = cpu_work_s * out.cpu, t_inference = inference_work_s * out.inference;
    const double event_s = t_cpu + t_inference + std::max(wait_s, 0.0);
    if (!(event_s > 0.0)) break;
    const double f_cpu = t_cpu / event_s, f_inference = t_inference / event_s;
    const double cpu = mean_slowdown(node, others, f_cpu, f_inference, false);
    const double inference = mean_slowdown(node, others, f_cpu, f_inference, true);
    const double change = std::abs(cpu - out.cpu) + std::abs(inference - out.inference);
    out.cpu = 0.5 * (out.cpu + cpu);
    out.inference = 0.5 * (out.inference + inference);
    out.busy_share = f_cpu + f_inference;
    out.inference_share = f_inference;
    if (change < 1e-12) break;
  }
  return out;
}

} // namespace sonicsim::analysis

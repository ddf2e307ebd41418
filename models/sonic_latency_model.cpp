#include "models/sonic_latency_model.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace sonicsim::models {

SonicLatencyModel SonicLatencyModel::from_paper(double t_cpu_s, double p, double t_gpu_s,
                                                double t_preprocess_s, double t_transmit_s, double t_travel_s,
                                                double n_gpu) {
  SonicLatencyModel m;
  m.t_cpu_s = t_cpu_s;
  m.p = p;
  m.t_gpu_s = t_gpu_s;
  m.t_preprocess_s = t_preprocess_s;
  m.t_transmit_s = t_transmit_s;
  m.t_travel_s = t_travel_s;
  m.n_gpu = n_gpu;
  m.preprocess = Preprocess::inside_non_accelerated;
  m.validate();
  return m;
}

SonicLatencyModel SonicLatencyModel::from_components(double t_non_accelerated_cpu_s, double t_preprocess_s,
                                                     double t_gpu_s, double t_transmit_s, double t_travel_s,
                                                     double n_gpu) {
  SonicLatencyModel m;
  m.t_cpu_s = t_non_accelerated_cpu_s;
  m.p = 0.0; // so that (1-p) t_cpu_s is exactly the non-accelerated CPU time
  m.t_gpu_s = t_gpu_s;
  m.t_preprocess_s = t_preprocess_s;
  m.t_transmit_s = t_transmit_s;
  m.t_travel_s = t_travel_s;
  m.n_gpu = n_gpu;
  m.preprocess = Preprocess::separate;
  m.validate();
  return m;
}

void SonicLatencyModel::validate() const {
  auto require = [](bool ok, const std::string& what) {
    if (!ok) throw std::invalid_argument("SonicLatencyModel: " + what);
  };
  // Written as "value >= bound" so that a NaN fails too.
  require(t_cpu_s >= 0.0, "t_cpu_s must be >= 0");
  require(p >= 0.0 && p < 1.0, "p must be in [0, 1)");
  require(t_gpu_s > 0.0, "t_gpu_s must be > 0 (the knee divides by it)");
  require(t_preprocess_s >= 0.0, "t_preprocess_s must be >= 0");
  require(t_transmit_s >= 0.0, "t_transmit_s must be >= 0");
  require(t_travel_s >= 0.0, "t_travel_s must be >= 0");
  require(n_gpu > 0.0, "n_gpu must be > 0");
  if (preprocess == Preprocess::inside_non_accelerated)
    require(t_preprocess_s <= (1.0 - p) * t_cpu_s,
            "t_preprocess_s exceeds (1-p) t_cpu_s, which is supposed to contain it");
}

double SonicLatencyModel::t_other_cpu_s() const {
  const double non_accelerated_s = (1.0 - p) * t_cpu_s;
  return preprocess == Preprocess::inside_non_accelerated ? non_accelerated_s - t_preprocess_s
                                                          : non_accelerated_s;
}

double SonicLatencyModel::t_latency_s() const {
  return t_preprocess_s + t_transmit_s + t_travel_s;
}

double SonicLatencyModel::t_ideal_s() const {
  return t_other_cpu_s() + t_gpu_s + t_latency_s();
}

bool SonicLatencyModel::saturated(double n_cpu) const {
  return n_cpu / n_gpu > t_ideal_s() / t_gpu_s;
}

double SonicLatencyModel::t_module_s(double n_cpu) const {
  const double excess = std::max(0.0, n_cpu / n_gpu - t_ideal_s() / t_gpu_s);
  return t_latency_s() + t_gpu_s * (1.0 + excess);
}

double SonicLatencyModel::t_sonic_s(double n_cpu) const {
  return t_other_cpu_s() + t_module_s(n_cpu);
}

double SonicLatencyModel::t_saturated_s(double n_cpu) const {
  return t_gpu_s * n_cpu / n_gpu;
}

double SonicLatencyModel::knee_jobs() const {
  return n_gpu * t_ideal_s() / t_gpu_s;
}

double SonicLatencyModel::optimal_cpu_per_gpu() const {
  return t_ideal_s() / t_gpu_s;
}

} // namespace sonicsim::models

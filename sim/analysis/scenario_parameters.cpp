#include "sim/analysis/scenario_parameters.hpp"

#include "models/network_limit.hpp"

#include <algorithm>

namespace sonicsim::analysis {

models::SonicLatencyModel ScenarioParameters::latency_model() const {
  return models::SonicLatencyModel::from_components(t_other_cpu_s, t_preprocess_s, t_gpu_s, t_transmit_s,
                                                    t_travel_s, static_cast<double>(n_gpu));
}

namespace {

// The closed network and what each of its stations is, built together so that the two never disagree.
struct NetworkWithResources {
  models::ClosedNetwork network;
  std::vector<ScenarioParameters::StationResource> resources;
};

NetworkWithResources build_closed_network(const ScenarioParameters& p) {
  NetworkWithResources out;
  models::ClosedNetwork& network = out.network;
  for (const auto& station : p.server_stations) {
    network.stations.push_back(models::QueueingStation{station.name, station.demand_s, station.servers});
    out.resources.push_back(
        {station.limited_by_instances                                       ? ResourceKind::instances
         : station.kind == ScenarioParameters::ServerStation::Kind::devices ? ResourceKind::device_pool
                                                                            : ResourceKind::host_cores,
         station.limited_by_instances ? std::nullopt : std::optional<int>(station.group)});
  }
  const double out_bits = p.input_bytes * 8.0;
  const double switch_left_bps = p.switch_bandwidth_bps - p.background_bps;
  double network_demand_s = 0.0;
  if (switch_left_bps > 0.0 && out_bits > 0.0) {
    network.stations.push_back(models::QueueingStation{"site switch (out)", out_bits / switch_left_bps, 1});
    out.resources.push_back({ResourceKind::site_switch, std::nullopt});
    network_demand_s += out_bits / switch_left_bps;
  }
  for (const auto& nics : p.pod_nics) {
    const double demand_s = nics.traffic_share * out_bits / nics.nic_bps;
    if (demand_s <= 0.0) continue;
    network.stations.push_back(models::QueueingStation{nics.name + " (in)", demand_s, nics.pods});
    out.resources.push_back({ResourceKind::pod_nics, nics.group});
    network_demand_s += demand_s;
  }
  const double delay_s =
      p.t_other_cpu_s + p.t_preprocess_s + p.t_transmit_s + p.t_travel_s - network_demand_s;
  network.think_time_s = std::max(0.0, delay_s);
  return out;
}

} // namespace

models::ClosedNetwork ScenarioParameters::closed_network() const {
  return build_closed_network(*this).network;
}

std::vector<ScenarioParameters::StationResource> ScenarioParameters::closed_network_resources() const {
  return build_closed_network(*this).resources;
}

double ScenarioParameters::network_limited_jobs(double event_time_s) const {
  return models::jobs_filling_link(shared_outbound_bps,
                                   models::per_job_traffic_bps(input_bytes * 8.0, event_time_s));
}

double ScenarioParameters::jobs_filling(const OutboundLink& link, double event_time_s) const {
  return models::jobs_filling_link(link.free_bps,
                                   models::per_job_traffic_bps(input_bytes * 8.0, event_time_s));
}

} // namespace sonicsim::analysis

#include "sim/actors/background_traffic.hpp"

namespace sg4 = simgrid::s4u;

namespace sonicsim {

BackgroundTrafficSource::BackgroundTrafficSource(const SitePlatform& site, RunRecorder& recorder, double rate_bps)
    : site_(site), recorder_(recorder), rate_bps_(rate_bps) {}

void BackgroundTrafficSource::operator()() {
  // Chunks of 10 s at the nominal rate: short enough that the time series sees the traffic where it happens.
  constexpr double chunk_s = 10.0;
  const double rate_bytes_per_s = rate_bps_ / 8.0;
  const std::vector<int> links{site_.switch_out_link_id};
  while (true) {
    const double start_s = sg4::Engine::get_clock();
    const double bytes = rate_bytes_per_s * chunk_s;
    sg4::Comm::sendto_init(site_.background_source, site_.background_sink)
        ->set_payload_size(static_cast<std::uint64_t>(bytes))
        ->set_rate(rate_bytes_per_s)
        ->wait();
    recorder_.record_transfer(links, bytes, start_s, sg4::Engine::get_clock());
  }
}

} // namespace sonicsim

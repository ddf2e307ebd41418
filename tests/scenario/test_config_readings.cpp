// The shipped scenarios read every perf_analyzer curve the way the import advises for those files
// (sim/measurements/perf_analyzer_reading.hpp): a scenario and `sonicsim import perf-analyzer` never disagree
// on what the same files measure.
#include "sim/measurements/perf_analyzer.hpp"
#include "sim/measurements/perf_analyzer_reading.hpp"
#include "sim/scenario/scenario_loader.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

TEST_CASE("every shipped scenario reads its perf_analyzer files as the import advises") {
  namespace m = sonicsim::measurements;
  int curves = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(SONICSIM_SOURCE_DIR) + "/configs")) {
    if (entry.path().extension() != ".yaml") continue;
    const auto scenario = sonicsim::load_scenario_file(entry.path().string());
    for (const auto& [name, model] : scenario.models)
      for (const auto& [device, files] : model.perf_analyzer_files) {
        const auto imported = m::import_perf_analyzer(files, std::nullopt, 0.0, 0.0);
        const auto advice = m::advise_reading(imported, device == sonicsim::cpu_device_type);
        const auto reading = model.perf_analyzer_readings.at(device);
        INFO(entry.path().filename().string() << ": models." << name << ".throughput." << device << ": "
                                              << m::reading_advice_text(advice, reading));
        CHECK(m::device_time_mapping_name(reading) ==
              std::string(m::device_time_mapping_name(advice.reading)));
        ++curves;
      }
  }
  // The CMS Mini-AOD scenarios read 8 curves each (4 models, T4 and CPU) at least: the walk found them.
  CHECK(curves >= 24);
}

TEST_CASE("the reading advice on hand-made rows: either signature calls for merging, on a GPU only") {
  namespace m = sonicsim::measurements;
  auto file = [](int batch, double measured_per_s, double infer_us, double output_us) {
    m::PerfAnalyzerFile f;
    f.batch_size = batch;
    m::PerfAnalyzerRow row;
    row.inferences_per_s = measured_per_s;
    row.compute_infer_s = infer_us * 1e-6;
    row.compute_output_s = output_us * 1e-6;
    f.rows.push_back(row);
    return f;
  };
  m::PerfAnalyzerImport imported;
  // batch 4 in 2 ms: 2,000/s by its own device time; measured 2,400/s is over 1.1 x 2,000: unreachable.
  imported.files.push_back(file(4, 2400, 2000, 10));
  // batch 64 in 4 ms (16,000/s) with 20 ms of Output, measured 5,000/s: the asynchronous signature.
  imported.files.push_back(file(64, 5000, 4000, 20000));
  // batch 128 in 30 ms: 4,267/s, measured 4,500/s: within 1.1x, no signature.
  imported.files.push_back(file(128, 4500, 30000, 10));
  const auto gpu = m::advise_reading(imported, false);
  CHECK(gpu.unreachable == 1);
  CHECK(gpu.asynchronous == 1);
  CHECK(gpu.merged == 2);
  CHECK(gpu.reading == m::DeviceTimeMapping::merged_async); // 2 of 3
  // On a CPU server the same rates are instances side by side: compute-infer.
  CHECK(m::advise_reading(imported, true).reading == m::DeviceTimeMapping::compute_infer);
  // One file of three with a signature is not most of them.
  imported.files.erase(imported.files.begin());
  imported.files.push_back(file(256, 4000, 70000, 10));
  CHECK(m::advise_reading(imported, false).reading == m::DeviceTimeMapping::compute_infer);
}

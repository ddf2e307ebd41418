#include "sim/validation/dataset_points.hpp"

#include "sim/measurements/measurement_error.hpp"
#include "sim/measurements/measurement_fields.hpp"
#include "sim/scenario/input_error.hpp"

#include <string>

namespace sonicsim {

std::vector<DatasetPoint> read_dataset(const CurveDataset& dataset) {
  std::vector<measurements::CsvRecord> records;
  try {
    records = measurements::read_csv_records(dataset.file, "a measured dataset (CSV)");
  } catch (const measurements::MeasurementError& e) {
    // The reader's message names the file, and the line of a malformed record.
    throw InputError(std::string("cannot read dataset: ") + e.what());
  }
  if (records.empty()) throw InputError(dataset.file + ": no rows for series '" + dataset.series + "'");
  const std::vector<std::string>& header = records.front().fields;
  auto column = [&](const std::string& name) {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return i;
    throw InputError(dataset.file + ": no column '" + name + "'");
  };
  const auto series = column("series"), x = column(dataset.x_column), y = column(dataset.y_column),
             sd = column(dataset.sd_column);
  const auto reference = dataset.reference_column.empty() ? y : column(dataset.reference_column);
  std::vector<DatasetPoint> points;
  for (std::size_t r = 1; r < records.size(); ++r) {
    const auto& cells = records[r].fields;
    if (cells.size() != header.size() || cells[series] != dataset.series) continue;
    points.push_back(
        {std::stod(cells[x]), std::stod(cells[y]), std::stod(cells[sd]), std::stod(cells[reference])});
  }
  if (points.empty()) throw InputError(dataset.file + ": no rows for series '" + dataset.series + "'");
  return points;
}

} // namespace sonicsim

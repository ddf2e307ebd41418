// The measured points of a curve case (validation/cases/*.yaml `dataset:`): one series of a CSV file, each
// point's x, y, sd and the level it is compared with.
#pragma once

#include "sim/validation/validation_case.hpp"

#include <vector>

namespace sonicsim {

struct DatasetPoint {
  double x, y, sd, reference;
};

// The rows of `dataset.series`, in file order. Throws InputError naming the file when it cannot be read, a
// column is missing or no row is of the series.
std::vector<DatasetPoint> read_dataset(const CurveDataset& dataset);

} // namespace sonicsim

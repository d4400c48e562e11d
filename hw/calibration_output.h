// File: hw/calibration_output.h
// What `parallax hw calibrate` writes besides measurements.csv (whose rows are
// models/calibration_data/measurement_csv.h's, the format `parallax fit` reads): provenance.json
// and the statistics of a case's repetitions.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "models/calibration_data/measurement_csv.h"

namespace parallax::hw {

// provenance.json: the provenance fields as an object (unknown clocks as null), plus `rows`.
std::string format_provenance_json(const models::MeasurementProvenance& p, size_t rows);

// Median and sample standard deviation of repetitions (empty: 0, 0).
struct RepStats {
  double median = 0;
  double stdev = 0;
};
RepStats rep_stats(std::vector<double> samples);

}  // namespace parallax::hw

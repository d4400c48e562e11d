// File: tests/fuzz/measurement_csv_fuzz.cpp
// Fuzzes the hardware measurement CSV reader (DataError is its answer to bad input); whatever it
// accepts must write back and read back to the same rows.
#include <cstdint>
#include <cstdlib>

#include "models/calibration_data/data_error.h"
#include "models/calibration_data/measurement_csv.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace parallax::models;
  std::vector<Measurement> rows;
  try {
    rows = parse_measurements_csv(parallax::fuzz::as_text(data, size), "measurements.csv");
  } catch (const DataError&) {
    return 0;
  }
  const std::vector<Measurement> back = parse_measurements_csv(format_measurements_csv(rows), "again.csv");
  if (back.size() != rows.size()) std::abort();
  for (size_t i = 0; i < rows.size(); ++i)
    if (!(back[i] == rows[i])) std::abort();
  return 0;
}

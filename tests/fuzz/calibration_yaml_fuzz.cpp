// File: tests/fuzz/calibration_yaml_fuzz.cpp
// Fuzzes the calibration file reader (sim/scenario/calibration_reader.h): InputError only.
#include <cstdint>

#include "sim/scenario/calibration_reader.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  parallax::fuzz::expect_only_input_errors(
      [&] { (void)parallax::parse_calibration(parallax::fuzz::as_text(data, size), "fuzz.yaml"); });
  return 0;
}

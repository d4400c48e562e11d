// File: tests/fuzz/nccl_tests_log_fuzz.cpp
// Fuzzes the nccl-tests log reader; its documented answer to bad input is DataError (file:line).
#include <cstdint>

#include "models/calibration_data/data_error.h"
#include "models/calibration_data/nccl_tests_log.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    (void)parallax::models::parse_nccl_tests_log(parallax::fuzz::as_text(data, size), "all_reduce_perf.log");
  } catch (const parallax::models::DataError&) {
  }
  return 0;
}

// File: tests/fuzz/torpor_samples_fuzz.cpp
// Fuzzes Torpor's per-minute samples (samples_derived.csv) through its file reader (the input is written to a scratch file first).
#include <cstdint>

#include "sim/workload/torpor_trace.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = parallax::fuzz::write_scratch_file(data, size);
  parallax::fuzz::expect_only_input_errors([&] { (void)parallax::read_torpor_samples(path); });
  return 0;
}

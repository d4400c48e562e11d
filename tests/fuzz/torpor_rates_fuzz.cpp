// File: tests/fuzz/torpor_rates_fuzz.cpp
// Fuzzes Torpor's rate list (invoc_pattern.txt) through its file reader (the input is written to a scratch file first).
#include <cstdint>

#include "sim/workload/torpor_trace.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = parallax::fuzz::write_scratch_file(data, size);
  parallax::fuzz::expect_only_input_errors([&] { (void)parallax::read_torpor_rates(path); });
  return 0;
}

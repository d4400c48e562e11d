// File: tests/fuzz/torpor_rates_fuzz.cpp
// Fuzzes Torpor's rate list (invoc_pattern.txt) through its reader
// (the stream overload, on the input in memory: the parser a file goes through).
#include <cstdint>

#include "sim/workload/torpor_trace.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in = parallax::fuzz::as_stream(data, size);
  parallax::fuzz::expect_only_input_errors([&] { (void)parallax::read_torpor_rates(in, "fuzz.csv"); });
  return 0;
}

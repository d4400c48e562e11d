// File: tests/fuzz/azure2019_durations_fuzz.cpp
// Fuzzes the Azure Functions 2019 duration percentiles through its reader
// (the stream overload, on the input in memory: the parser a file goes through).
#include <cstdint>

#include "sim/workload/azure2019_trace.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in = parallax::fuzz::as_stream(data, size);
  parallax::fuzz::expect_only_input_errors([&] { (void)parallax::read_azure2019_durations(in, "fuzz.csv"); });
  return 0;
}

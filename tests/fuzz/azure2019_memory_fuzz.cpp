// File: tests/fuzz/azure2019_memory_fuzz.cpp
// Fuzzes the Azure Functions 2019 memory percentiles through its file reader (the input is written to a scratch file first).
#include <cstdint>

#include "sim/workload/azure2019_trace.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = parallax::fuzz::write_scratch_file(data, size);
  parallax::fuzz::expect_only_input_errors([&] { (void)parallax::read_azure2019_memory(path); });
  return 0;
}

// File: tests/fuzz/azure_llm_fuzz.cpp
// Fuzzes the Azure LLM inference trace through its file reader (the input is written to a scratch file first).
#include <cstdint>

#include "sim/workload/azure_llm_trace.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = parallax::fuzz::write_scratch_file(data, size);
  parallax::fuzz::expect_only_input_errors([&] { (void)parallax::read_azure_llm_trace(path); });
  return 0;
}

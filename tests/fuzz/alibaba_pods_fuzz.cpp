// File: tests/fuzz/alibaba_pods_fuzz.cpp
// Fuzzes the Alibaba openb pod-list reader (the input is written to a scratch file first).
#include <cstdint>

#include "sim/workload/alibaba_gpu_trace.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = parallax::fuzz::write_scratch_file(data, size);
  parallax::fuzz::expect_only_input_errors([&] { (void)parallax::read_alibaba_pods(path); });
  return 0;
}

// File: tests/fuzz/trace_source_fuzz.cpp
// Fuzzes load_trace(): a trace file read by any reader, then expanded to arrivals (minute
// expansion, rate mix). The first byte picks the format and the time window (the rest is the
// file), so one corpus covers all five formats; arrivals are kept to the first 10 minutes.
#include <cstdint>
#include <stdexcept>

#include "sim/workload/trace_source.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  constexpr parallax::TraceFormat kFormats[] = {parallax::TraceFormat::torpor, parallax::TraceFormat::torpor_rates,
                                                parallax::TraceFormat::azure2019, parallax::TraceFormat::azure2021,
                                                parallax::TraceFormat::azure_llm};
  parallax::TraceSpec spec;
  spec.format = kFormats[data[0] % 5];
  spec.duration = parallax::Time::seconds(60.0 * (1 + (data[0] / 5) % 10));
  spec.functions = 1 + data[0] / 50;
  // Expansions up to the default cap (1e8 arrivals) are legal but would exceed the fuzzer's 2 GB;
  // a lower cap keeps every input small while still exercising the check.
  spec.max_arrivals = 1e6;
  spec.path = parallax::fuzz::write_scratch_file(data + 1, size - 1);
  parallax::RandomStream rng(data[0]);
  parallax::fuzz::expect_only_input_errors([&] { (void)parallax::load_trace(spec, rng); });
  return 0;
}

// File: sim/workload/arrival.h
// The one record every workload source produces: a request arriving at a time for a function (a
// model or service, as a dense index), with what the trace knows about it. Trace readers, the
// per-minute expansion and the arrival processes all emit Arrivals; policies never see the files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/engine/sim_time.h"

namespace parallax {

struct Arrival {
  Time at = Time::zero();           // since the start of the trace or process
  uint32_t function = 0;            // dense index into TraceArrivals::function_names
  uint32_t input_tokens = 0;        // LLM traces: prompt (context) tokens; 0 elsewhere
  uint32_t output_tokens = 0;       // LLM traces: generated tokens; 0 elsewhere
  Time recorded_duration = Time::zero();  // Azure 2021: the invocation's measured duration; 0 elsewhere

  friend bool operator==(const Arrival&, const Arrival&) = default;
};

// Arrivals sorted by time (ties keep the order in which the source produced them), and the name
// of every function index (the trace's hash, "owner/app/function", or "f<i>" when it has none).
struct TraceArrivals {
  std::vector<Arrival> arrivals;
  std::vector<std::string> function_names;
};

}  // namespace parallax

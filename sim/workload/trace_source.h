// File: sim/workload/trace_source.h
// One entry point from a scenario's `trace:` block to arrivals, e.g.
//   trace: {format: azure2019, path: traces/azure2019/invocations.csv, functions: 100}
// TraceSpec holds those values (the scenario layer parses YAML into it and adds file:line:col to
// any std::invalid_argument); load_trace picks the reader and, for count or rate traces, the
// documented expansion. Formats and their meaning are listed in docs/workloads.md.
#pragma once

#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "sim/engine/random_streams.h"
#include "sim/workload/arrival.h"

namespace parallax {

enum class TraceFormat {
  torpor,        // samples_derived.csv: per-minute counts → minute expansion
  torpor_rates,  // invoc_pattern.txt: mean rates → Poisson rate mix (needs duration)
  azure2019,     // invocations_per_function: per-minute counts → minute expansion
  azure2021,     // per-invocation records, start = end − duration
  azure_llm,     // AzureLLMInferenceTrace_*.csv, one function "llm" with token counts
};

// "torpor", "torpor_rates", "azure2019", "azure2021", "azure_llm"; nullopt otherwise.
std::optional<TraceFormat> parse_trace_format(std::string_view name);
std::string_view trace_format_name(TraceFormat format);

// The most arrivals load_trace() expands a count or rate trace to by default (about 3 GB of
// Arrivals; TraceSpec::max_arrivals changes it); a trace that asks for more is refused with
// InputError before any is drawn. Found by fuzzing: one rate of 4.3e10 requests/min in
// invoc_pattern.txt ran out of memory.
inline constexpr double kMaxTraceArrivals = 1e8;

struct TraceSpec {
  TraceFormat format = TraceFormat::azure2019;
  std::string path;
  size_t functions = std::numeric_limits<size_t>::max();  // keep the first N functions of the file
  Time duration = Time::zero();  // keep arrivals before this time; zero = the whole trace
  double minute_cv = 1;          // per-minute expansion: 1 = Poisson within each minute
  double max_arrivals = kMaxTraceArrivals;  // refuse count/rate traces that would expand past this
};

// Reads spec.path (InputError on a bad file) and returns arrivals sorted by time. Random draws
// (minute expansion, rate mix) come only from `rng`. Throws std::invalid_argument on a bad spec
// (functions = 0, minute_cv <= 0, torpor_rates without a duration).
TraceArrivals load_trace(const TraceSpec& spec, RandomStream& rng);

}  // namespace parallax

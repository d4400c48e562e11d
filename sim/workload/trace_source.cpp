// File: sim/workload/trace_source.cpp
#include "sim/workload/trace_source.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "sim/io/input_error.h"
#include "sim/workload/azure2019_trace.h"
#include "sim/workload/azure2021_trace.h"
#include "sim/workload/azure_llm_trace.h"
#include "sim/workload/minute_expansion.h"
#include "sim/workload/rate_mix.h"
#include "sim/workload/torpor_trace.h"

namespace parallax {

namespace {

constexpr std::array<std::pair<std::string_view, TraceFormat>, 5> kFormats = {{
    {"torpor", TraceFormat::torpor},
    {"torpor_rates", TraceFormat::torpor_rates},
    {"azure2019", TraceFormat::azure2019},
    {"azure2021", TraceFormat::azure2021},
    {"azure_llm", TraceFormat::azure_llm},
}};

// Minutes of a per-minute trace that a run of spec.duration draws (all when the duration is zero).
size_t minutes_drawn(const TraceSpec& spec) {
  if (spec.duration == Time::zero()) return std::numeric_limits<size_t>::max();
  return static_cast<size_t>(std::ceil(spec.duration.to_seconds() / 60.0));
}

// Expands the minutes the duration keeps, and drops arrivals of the last one past the horizon.
// Minutes after it are never drawn: an empty minute at the horizon once let the expander go on
// to fill the next non-empty one, however large (a fuzz input reached 24 GB that way).
TraceArrivals expand(const MinuteCounts& counts, const TraceSpec& spec, RandomStream& rng) {
  MinuteCountExpander expander(counts, rng, spec.minute_cv, minutes_drawn(spec));
  TraceArrivals out;
  for (const auto& f : counts.functions) out.function_names.push_back(f.name);
  Arrival a;
  while (expander.next(a) && (spec.duration == Time::zero() || a.at < spec.duration)) out.arrivals.push_back(a);
  return out;
}

}  // namespace

std::optional<TraceFormat> parse_trace_format(std::string_view name) {
  for (const auto& [n, f] : kFormats) {
    if (n == name) return f;
  }
  return std::nullopt;
}

std::string_view trace_format_name(TraceFormat format) {
  for (const auto& [n, f] : kFormats) {
    if (f == format) return n;
  }
  return "?";
}

namespace {

// Refuses a trace whose expansion would exceed spec.max_arrivals (expected count for rates).
void check_expansion_size(double arrivals, const TraceSpec& spec) {
  if (arrivals > spec.max_arrivals)
    throw InputError(SourceLocation{spec.path, 0, 0}, "",
                     fmt::format("the trace expands to {:.3g} arrivals, more than the limit of {:.3g}; keep fewer "
                                 "functions or a shorter duration",
                                 arrivals, spec.max_arrivals));
}

// Counts in the minutes that the expansion draws.
const MinuteCounts& checked_counts(const MinuteCounts& counts, const TraceSpec& spec) {
  const size_t minutes = minutes_drawn(spec);
  double total = 0;
  for (const FunctionMinuteCounts& f : counts.functions)
    for (size_t m = 0; m < f.per_minute.size() && m < minutes; ++m) total += f.per_minute[m];
  check_expansion_size(total, spec);
  return counts;
}

}  // namespace

TraceArrivals load_trace(const TraceSpec& spec, RandomStream& rng) {
  if (spec.functions == 0) throw std::invalid_argument("functions must be >= 1");
  if (!(std::isfinite(spec.minute_cv) && spec.minute_cv > 0)) throw std::invalid_argument("minute_cv must be > 0");
  if (spec.duration < Time::zero()) throw std::invalid_argument("duration must be >= 0");
  TraceArrivals out;
  switch (spec.format) {
    case TraceFormat::torpor:
      return expand(checked_counts(read_torpor_samples(spec.path, spec.functions), spec), spec, rng);
    case TraceFormat::azure2019:
      return expand(checked_counts(read_azure2019_invocations(spec.path, spec.functions), spec), spec, rng);
    case TraceFormat::torpor_rates: {
      if (spec.duration == Time::zero()) throw std::invalid_argument("format torpor_rates needs a duration");
      std::vector<double> rates = read_torpor_rates(spec.path);
      if (rates.size() > spec.functions) rates.resize(spec.functions);
      double expected = 0;
      for (double r : rates) expected += r * spec.duration.to_seconds() / 60.0;
      check_expansion_size(expected, spec);
      return poisson_rate_mix(rates, spec.duration, rng);
    }
    case TraceFormat::azure2021:
      out = read_azure2021_trace(spec.path, spec.functions);
      break;
    case TraceFormat::azure_llm:
      out = read_azure_llm_trace(spec.path);
      break;
  }
  if (spec.duration != Time::zero()) {
    // Arrivals are sorted: drop the tail at or after the horizon.
    const auto cut = std::lower_bound(out.arrivals.begin(), out.arrivals.end(), spec.duration,
                                      [](const Arrival& a, Time t) { return a.at < t; });
    out.arrivals.erase(cut, out.arrivals.end());
  }
  return out;
}

}  // namespace parallax

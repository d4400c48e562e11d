// File: sim/scenario/input_limits.h
// The ranges of every time, rate and size a scenario gives, chosen so that no accepted input can
// take the engine's clock (int64 picoseconds: ±9.22e6 s, sim/engine/sim_time.h) out of its range
// over a run. The horizon (duration_s, start_s) gets at most 1e6 s; everything a run adds to it
// (latencies, launch and resize costs, a transfer's bytes over the slowest link, latency x ring
// steps) is bounded so that the sum stays below kMaxRunSeconds. Rates have a floor and a ceiling so
// that an arrival process draws neither nothing nor without end per simulated second.
// docs/reliability.md (Ranges) lists them; the loaders check them where the value enters.
#pragma once

#include <string_view>

namespace parallax {

// A closed range [min, max] of a scenario number, or (min, max] when min_exclusive, and what the
// limit protects (appended to the message).
struct NumberRange {
  double min = 0;
  double max = 0;
  bool min_exclusive = false;
  std::string_view why;
};

// The clock's reach: int64 picoseconds.
inline constexpr double kClockSeconds = 9.223372036854775807e6;
// What a run may schedule at most: the horizon plus every tail, with margin below the clock.
inline constexpr double kMaxRunSeconds = 4e6;
// Arrival draws one process may be expected to make over a run (rate x duration): memory and time
// grow with it.
inline constexpr double kMaxExpectedDraws = 1e8;

inline constexpr std::string_view kWhyHorizon =
    "the simulated horizon is at most 1e6 s (11.6 days): the clock is int64 picoseconds (9.2e6 s)";
inline constexpr std::string_view kWhyDelay =
    "a single delay is at most 1 s, so that delays x steps stay within the clock (int64 picoseconds)";
inline constexpr std::string_view kWhyRate =
    "a rate of 1e-6 to 1e9 per second: fewer draws nothing in the horizon, more is below a nanosecond apart";

inline constexpr NumberRange kHorizonRange{0, 1e6, true, kWhyHorizon};      // duration_s
inline constexpr NumberRange kStartRange{0, 1e6, false, kWhyHorizon};       // start_s
inline constexpr NumberRange kDelaySecondsRange{0, 1, false, kWhyDelay};    // latency, launch, resize cost
inline constexpr NumberRange kSloSecondsRange{0, 1e6, true, kWhyHorizon};   // slo_ms, windows
inline constexpr NumberRange kWaitSecondsRange{0, 1e6, false, kWhyHorizon};  // timeout_ms
inline constexpr NumberRange kBandwidthGBpsRange{
    1e-6, 1e6, false, "bandwidths are 1e-6 to 1e6 GB/s (1 kB/s to 1 PB/s)"};
inline constexpr NumberRange kTflopsRange{1e-6, 1e6, false, "peak_tflops is 1e-6 to 1e6"};
inline constexpr NumberRange kRateRange{1e-6, 1e9, false, kWhyRate};
inline constexpr NumberRange kCvRange{1e-3, 1e3, false, "cv is 1e-3 to 1e3"};
inline constexpr NumberRange kSojournRange{
    1e-6, 1e6, false, "a mean sojourn is 1e-6 to 1e6 s: shorter switches states without end"};

}  // namespace parallax

// File: sim/workload/minute_expansion.h
// Turns per-minute invocation counts (Torpor samples, Azure Functions 2019) into arrival times,
// keeping every minute's count exactly. Method (docs/workloads.md "Per-minute expansion"): for a
// minute with n invocations of a function, draw n+1 spacings g_0..g_n and place arrival i at
// (g_0+…+g_i)/(g_0+…+g_n) of the minute. With exponential spacings (cv = 1, the default) these are
// exactly the order statistics of n uniforms: a Poisson process conditioned on n events in the
// minute. With Gamma(1/cv², 1) spacings the minute is burstier (cv > 1) or more regular (cv < 1)
// while the count stays n. Draw order: minute-major, then function order, so one seed always gives
// one sequence, and memory is one minute of arrivals.
#pragma once

#include <cstddef>
#include <limits>

#include "sim/engine/random_streams.h"
#include "sim/workload/arrival.h"
#include "sim/workload/minute_counts.h"

namespace parallax {

class MinuteCountExpander {
 public:
  // `counts` and `rng` must outlive the expander. Only the first `minutes` minutes are expanded
  // (all by default). Throws std::invalid_argument if cv <= 0 or if the functions do not all have
  // the same number of minutes.
  MinuteCountExpander(const MinuteCounts& counts, RandomStream& rng, double cv = 1,
                      size_t minutes = std::numeric_limits<size_t>::max());

  // The next arrival in time order (within a minute, ties keep function order); false after the
  // last minute. Arrival::function is the index into counts.functions.
  bool next(Arrival& out);

 private:
  void fill_minute();
  void sort_batch(Time minute_start);

  const MinuteCounts& counts_;
  RandomStream& rng_;
  double cv_;
  size_t minutes_;     // expand minutes [0, minutes_)
  size_t minute_ = 0;  // next minute to fill
  std::vector<Arrival> batch_;
  size_t cursor_ = 0;
  std::vector<double> spacings_;
  std::vector<Arrival> sorted_;       // sort_batch's scratch
  std::vector<uint32_t> bucket_end_;  // sort_batch's scratch
};

// Every arrival of every minute, with function names copied from `counts`.
TraceArrivals expand_minute_counts(const MinuteCounts& counts, RandomStream& rng, double cv = 1);

}  // namespace parallax

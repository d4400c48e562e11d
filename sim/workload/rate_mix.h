// File: sim/workload/rate_mix.h
// Arrivals for a set of functions given only their mean rates (Torpor's invoc_pattern.txt): the
// superposition of independent Poisson processes, drawn as one Poisson process at the total rate
// whose every arrival picks function f with probability rate_f / total (the same law as Torpor's
// scripts/sender_from_trace.py, with exponential rather than integer-millisecond gaps).
#pragma once

#include <vector>

#include "sim/engine/random_streams.h"
#include "sim/workload/arrival.h"

namespace parallax {

// Arrivals in [0, duration); function f is named "f<f>". Throws std::invalid_argument if a rate is
// not positive and finite or the list is empty.
TraceArrivals poisson_rate_mix(const std::vector<double>& rates_per_min, Time duration, RandomStream& rng);

}  // namespace parallax

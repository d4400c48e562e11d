// File: sim/policies/multiplex/peak_rate.h
// The rate a rigid MIG layout is sized for under `mig_sizing: peak` (docs/multiplex.md,
// "Underfilled instances"): a high percentile of the service's arrival rate over short windows,
// so that an instance can serve the service's bursts rather than its mean. Defined for every
// arrival kind alike (Poisson, gamma, MMPP, a replayed trace): the run's arrivals are counted in
// consecutive windows of `window_s` from 0 (whole windows only; one window of the duration when
// the run is shorter than a window) and the percentile is taken by nearest rank over the windows'
// rates (count / window).
//
//   MMPP on 24000/s for 20 ms, off 200/s for 80 ms, 10 ms windows, p99: ≈ 24000/s (the on-rate);
//   its mean is ≈ 4960/s.
#pragma once

#include <span>

#include "sim/engine/sim_time.h"

namespace parallax {

// `arrivals` sorted; 0 < percentile <= 100; window_s > 0. Arrivals at or after the last whole
// window's end are not counted.
double windowed_peak_rate(std::span<const Time> arrivals, double duration_s, double window_s, double percentile);

}  // namespace parallax

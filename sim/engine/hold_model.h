// File: sim/engine/hold_model.h
// The classic hold model, the benchmark of future-event lists: N events pending; each firing
// schedules one more at now + 1 ps + Exp(1 us), the delays drawn by ExponentialZiggurat inside
// the timed phase. Used by `parallax bench engine`.
#pragma once

#include <cstdint>

namespace parallax {

struct HoldModelResult {
  uint64_t pending;       // N
  uint64_t events;        // events fired in the timed phase
  double wall_s;          // wall time of the timed phase
  double events_per_s;
};

// Fills the queue with `pending` events, then times `events` firings.
HoldModelResult run_hold_model(uint64_t pending, uint64_t events, uint64_t seed = 1);

}  // namespace parallax

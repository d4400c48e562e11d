// File: sim/report/link_activity.h
// What each link direction carried over time, rebuilt from finished transfers: the number of
// flows in flight and their summed average rates (a step function), the bytes carried and the
// time it was busy. The trace's link counters and summary.json's links[] come from here. It is an
// approximation of the solver's real rates, which the ActivityLog does not keep (docs/metrics.md).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sim/platform/activity_record.h"

namespace parallax {

// The state of one link direction from `at` until the next sample.
struct LinkSample {
  Time at;
  int64_t flows = 0;       // transfers in flight
  double rate_Bps = 0;     // sum over those flows of bytes / (end - start)
};

struct LinkActivity {
  std::vector<LinkSample> samples;  // in time order, one per instant the state changed
  double bytes = 0;                 // payload bytes of every transfer that crossed it
  Time busy;                        // total time with at least one flow in flight
  uint64_t transfers = 0;           // transfers that crossed it, zero-length ones included
};

// One entry per link direction of log.link_directions. Every non-kernel record with links counts
// (copies, and collectives if a platform ever gives them a route). A transfer with zero duration
// adds to bytes and transfers but never to flows or rate. Deterministic: the same records in the
// same order give bit-identical rates.
std::vector<LinkActivity> link_activity(const ActivityLog& log,
                                        std::span<const ActivityRecord* const> records);

// The same over all of log.records.
std::vector<LinkActivity> link_activity(const ActivityLog& log);

}  // namespace parallax

// File: sim/policies/overlap/pair_schedule.h
// A pair-aware hierarchical all-gather / reduce-scatter (issue 19 part 2) for groups whose GPUs
// come in bridged pairs (a6000x8-nvlink-pairs: NVLink 0-1, 2-3, …, PCIe between pairs), found
// from the paths, not from the preset's name: a pair is two GPUs each of which has exactly one
// NVLink path inside the group, to the other. A group with an odd GPU, a GPU with no or several
// NVLink partners (an NVSwitch box) or fewer than two pairs has no pair schedule.
//
// All-gather of S bytes over P = 2Q GPUs (chunk c = S/P per GPU), in Q lock-step rounds:
//   rounds 0..Q−2: every GPU sends one chunk to its partner over the bridge (its own in round 0,
//                  else the one it got over PCIe the round before) and one chunk over PCIe to its
//                  counterpart in the next pair (the member rings: the pairs' first GPUs form one
//                  ring over the pairs, their second GPUs another; a pair-sized chunk per round
//                  crosses between pairs as two halves);
//   round Q−1:     the partner exchange of the last chunks, split over the bridge and the pair's
//                  PCIe path in proportion to their bottlenecks (both links are free by then).
// Each GPU gets 2 chunks per round and 1 in the last: P − 1 in all, as a ring. The reduce-scatter
// is the same rounds in reverse order (time-reversed data flow, sums instead of copies).
// A round's time is a lock-step ring step (models::ring_step_time_s) of each of its rings with
// every link direction divided among the hops of all its rings (ring_hops.h), the slowest ring
// setting it:  time = base + Σ_rounds (step_overhead + max_rings max_hops (lat + share·c / bw)).
//
// Example (GPUs 0..3 of the A6000 box, 56 GB/s bridges, 32 GB/s PCIe, latencies aside):
//   round 0: max(c/56, c/32) = c/32; round 1: c/(56 + 32)  ->  c/32 + c/88 = 0.0426·c/GB/s
//   against 3c/64 = 0.0469·c for the double ring and 3c/32 for the single ring.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/ring.h"
#include "sim/platform/platform.h"
#include "sim/policies/overlap/ring_hops.h"

namespace parallax {

// One lock-step round: rings run at once, ring r moving shares[r] · chunk over each of its hops.
struct PairRound {
  std::vector<RingRoute> rings;
  std::vector<double> shares;
  std::vector<models::RingParams> params;  // each ring's hops, shared links divided
  double step_s = 0;                        // step_overhead + slowest ring (for chunk_bytes)
  double chunks = 0;                        // chunks every GPU sends (and receives) in the round
};

struct PairSchedule {
  std::vector<std::pair<int, int>> pairs;  // bridged partners (GPU ids), in group order
  std::vector<PairRound> rounds;           // all-gather order (reduce-scatter: reversed)
  double time_s = 0;                       // Σ round steps + the collective's base latency
  std::string binding;                     // the slowest hop of the slowest round, in words
};

// The pair schedule of `gpus` for a collective of `bytes` (chunk = bytes / P), or nullopt where
// the group is not pairable (above). Throws PlatformError for an unknown GPU or a GPU named twice.
std::optional<PairSchedule> synthesise_pair_schedule(Platform& platform, const std::vector<int>& gpus, double bytes,
                                                     double step_overhead_s, double base_latency_s);

}  // namespace parallax

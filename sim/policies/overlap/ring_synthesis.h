// File: sim/policies/overlap/ring_synthesis.h
// The rings a topology-aware IntraFusion runs on a group of GPUs, searched over the machine's
// paths rather than fixed to 0..P−1 and its reverse (issue 19 part 2).
//
// What is searched (ideas taken, docs/overlap.md §Ring synthesis):
//  * ring orders, as NCCL's graph search does (search.cc): every cycle through the group for
//    P <= 6; for larger groups a depth-first search from the first GPU that tries the next GPU
//    over the fastest path first and keeps the first kMaxOrders cycles it closes (the identity
//    order is always a candidate, so the search never does worse than the fixed ring);
//  * the path of every hop (Platform::paths): each order once on every pair's first path
//    (NVLink where bridged) and once on each pair's last disjoint path (PCIe on a bridged pair),
//    so one ring can run on the NVLink bridges while the other runs on PCIe (Compass's hybrid
//    double ring);
//  * the byte split, as Blink/TACCL pack trees or rings into link capacity: each ring carries a
//    share of every step's chunk in proportion to its bottleneck, so both finish together.
// Shared link directions are accounted exactly as the overlap models and the DES see them: a hop's
// bandwidth is its path's bottleneck with every link divided among the hops of both rings that
// cross it (ring_hops.h). The pick, for a step of `chunk_bytes` per GPU: the smallest predicted
// step, max hop latency + chunk / (sum of the rings' bottlenecks) (each ring's share in
// proportion to its bottleneck, so both finish together); with chunk_bytes = 0 the largest
// aggregate bandwidth, then the smallest latency. Ties keep the first candidate: the fixed rings
// (identity and its counter-rotating twin), so a slower-to-start PCIe ring is not taken for small
// chunks where it would lose.
//
// Not searched here: schedules other than rings; the pair-aware hierarchical all-gather is
// pair_schedule.h, and overlap_group picks between it and these rings.
//
// Cost: O(candidates² · P · links per hop) with the paths asked of the platform once per ordered
// pair; `parallax bench` has the line (ring_synthesis, 8 GPUs).
#pragma once

#include <string>
#include <vector>

#include "models/ring.h"
#include "sim/platform/platform.h"
#include "sim/policies/overlap/ring_hops.h"

namespace parallax {

inline constexpr int kMaxRingOrders = 24;

struct SynthesisedRings {
  std::vector<RingRoute> rings;              // one (single ring) or two (double ring)
  std::vector<models::RingParams> params;    // each ring's hops, shared links divided
  std::vector<double> shares;                // fraction of every step's chunk per ring (sum 1)
  double bandwidth_Bps = 0;                  // Σ bottlenecks: a step moves chunk / this
  std::string binding;                       // the link that sets the slowest ring's bottleneck
};

// The best single ring and the best pair of rings over `gpus` (distinct GPU ids, >= 1).
// Throws PlatformError for an unknown GPU or a GPU named twice.
SynthesisedRings synthesise_single_ring(Platform& platform, const std::vector<int>& gpus, double chunk_bytes = 0);
SynthesisedRings synthesise_double_ring(Platform& platform, const std::vector<int>& gpus, double chunk_bytes = 0);

}  // namespace parallax

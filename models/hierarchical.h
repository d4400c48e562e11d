// File: models/hierarchical.h
// Two-level collective for G GPUs per node × N nodes (REFERENCE.md §2.1): the intra-node ring and
// the inter-node ring are each a RingParams (G and N hops), costed with ring_cost.
//
//   all-reduce:     RS_intra(S) + AR_inter(S/G) + AG_intra(S)
//   all-gather:     AG_inter(S/G) + AG_intra(S)        (S = full output)
//   reduce-scatter: RS_intra(S) + RS_inter(S/G)        (S = full input)
//   broadcast, reduce, all-to-all: OP_inter(S) + OP_intra(S) (one level after the other)
//   send/recv:      one inter-node hop, SR_inter(S)
//
// Example (REFERENCE.md §2.1 shape): G = 8, N = 2, intra hops 100 GB/s / 1 µs, inter hops
// 25 GB/s / 5 µs, all-reduce of 160 MB, no base latency:
//   RS_intra = 7·1 µs + 7·(20 MB)/(100 GB/s) = 1407 µs; AG_intra the same;
//   AR_inter(20 MB) = 2·5 µs + 2·(10 MB)/(25 GB/s) = 810 µs; total 3624 µs.
#pragma once

#include "models/collective_cost.h"
#include "models/ring.h"

namespace parallax::models {

struct HierarchicalParams {
  RingParams intra;   // G hops, inside one node
  RingParams inter;   // N hops, one GPU per node (the G such rings run in parallel)
};

CollectiveCost hierarchical_cost(CollectiveOp op, double bytes, const HierarchicalParams& params);

}  // namespace parallax::models

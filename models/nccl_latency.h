// File: models/nccl_latency.h
// NCCL's latency constants (baseLat per algorithm and protocol, hwLat per link type, algorithm
// and protocol) as quoted in REFERENCE.md §2.2 from NVIDIA/nccl src/graph/tuning.cc, and a
// helper that builds a uniform ring of hops with them. Bandwidths are not here: they are the
// caller's (hardware preset or calibration).
//
// Example: 8-GPU NVLink ring all-reduce, Simple: base 8.4 µs + 2·7 steps × 3.4 µs = 56 µs of
// fixed cost (REFERENCE.md §2.2), i.e. ring_cost(all_reduce, 0 B, nccl_uniform_ring(8, ...)).
#pragma once

#include <cstdint>

#include "models/collective_cost.h"
#include "models/ring.h"

namespace parallax::models {

enum class NcclAlgorithm { ring, tree };

// baseLat, seconds: Tree {LL 6.8, LL128 14.0, Simple 8.4} µs; Ring {6.6, 14.0, 8.4} µs.
double nccl_base_latency_s(NcclAlgorithm algorithm, Protocol protocol);

// hwLat per hop, seconds: NVLink ring {0.6, 1.9, 3.4}, tree {0.6, 1.25, 4.0}; PCIe ring
// {1.0, 2.5, 5.7}, tree {1.0, 1.9, 5.7} (tuning.cc at NVIDIA/nccl 5067397: its table says 4.0
// for Simple, which init replaces by the ring's 5.7); NET ring {2.7, 4.0, 14.0}, tree
// {5.0, 8.5, 14.0} µs.
double nccl_hw_latency_s(NcclAlgorithm algorithm, LinkType link, Protocol protocol);

// A ring of `ranks` identical hops (bandwidth_Bps each, hwLat of `link`/`protocol`) with
// NCCL's ring baseLat.
RingParams nccl_uniform_ring(int64_t ranks, double bandwidth_Bps, LinkType link, Protocol protocol);

}  // namespace parallax::models

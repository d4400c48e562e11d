// File: models/collective_cost.h
// The vocabulary every collective model shares: which collective, how many bytes, the hops of a
// ring, and the result type; plus nccl-tests' algbw/busbw definitions. The algorithms themselves
// are one file each: ring.h, double_ring.h, tree.h, hierarchical.h; collective_auto.h picks one.
//
// Bytes convention (nccl-tests, REFERENCE.md §2.3): S is the full buffer for all-reduce, the full
// output for all-gather (P × per-rank input) and the full input for reduce-scatter.
// busbw = (S / t) × factor, factor = 2(P−1)/P for all-reduce and (P−1)/P for all-gather and
// reduce-scatter, so that busbw of an ideal ring equals the bottleneck link bandwidth.
#pragma once

#include <cstdint>
#include <string_view>

namespace parallax::models {

enum class CollectiveOp { all_reduce, all_gather, reduce_scatter };

// NCCL's three protocols (REFERENCE.md §2.2): they differ in latency and achievable bandwidth.
enum class Protocol { ll, ll128, simple };

// Link families that NCCL gives different per-hop latencies (REFERENCE.md §2.2).
enum class LinkType { nvlink, pcie, net };

std::string_view to_string(CollectiveOp op);
std::string_view to_string(Protocol protocol);
std::string_view to_string(LinkType link);

// One directed hop of a ring, from rank i to rank i+1: the bandwidth one rank can push over it
// in one direction and the latency one ring step pays on it.
struct Hop {
  double bandwidth_Bps = 0.0;
  double latency_s = 0.0;
  LinkType link = LinkType::nvlink;
};

// What a collective model returns: total time and its two parts.
struct CollectiveCost {
  double time_s = 0.0;
  double latency_s = 0.0;     // size-independent part (base + per-step latencies)
  double bandwidth_s = 0.0;   // size-proportional part
};

// Ring steps: 2(P−1) for all-reduce (reduce-scatter then all-gather), P−1 otherwise.
int64_t ring_steps(CollectiveOp op, int64_t ranks);

// nccl-tests bus-bandwidth factor: 2(P−1)/P for all-reduce, (P−1)/P for all-gather and
// reduce-scatter (REFERENCE.md §2.3). Zero for P = 1.
double bus_bandwidth_factor(CollectiveOp op, int64_t ranks);
// algbw = S / t.
double algorithm_bandwidth_Bps(double bytes, double time_s);
// busbw = algbw · factor.
double bus_bandwidth_Bps(CollectiveOp op, int64_t ranks, double bytes, double time_s);

}  // namespace parallax::models

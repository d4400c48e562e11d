// File: models/collective_cost.h
// The vocabulary every collective model shares: which collective, how many bytes, the hops of a
// ring, and the result type; plus nccl-tests' algbw/busbw definitions. The algorithms themselves
// are one file each: ring.h, double_ring.h, tree.h, hierarchical.h; nccl_tuning.h is NCCL's
// own choice of algorithm and protocol.
//
// Bytes convention (nccl-tests doc/PERFORMANCE.md, REFERENCE.md §2.3): S is the full buffer for
// all-reduce, broadcast and reduce, the full output for all-gather (P × per-rank input), the full
// input for reduce-scatter, a rank's whole send buffer for all-to-all (P × per-peer count) and the
// message for send/recv. busbw = (S / t) × factor, factor = 2(P−1)/P for all-reduce, (P−1)/P for
// all-gather, reduce-scatter and all-to-all, 1 for broadcast, reduce and send/recv, so that busbw
// of an ideal algorithm equals the bottleneck link bandwidth: the factor times S is the number of
// bytes the busiest link carries, which is how every model here charges bandwidth.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace parallax::models {

enum class CollectiveOp { all_reduce, all_gather, reduce_scatter, all_to_all, broadcast, reduce, send_recv };

// Every op, in the order above (for loops and "ops: ..." messages).
inline constexpr CollectiveOp kAllCollectiveOps[] = {
    CollectiveOp::all_reduce, CollectiveOp::all_gather, CollectiveOp::reduce_scatter, CollectiveOp::all_to_all,
    CollectiveOp::broadcast,  CollectiveOp::reduce,     CollectiveOp::send_recv};

// NCCL's three protocols (REFERENCE.md §2.2): they differ in latency and achievable bandwidth.
enum class Protocol { ll, ll128, simple };

// Link families that NCCL gives different per-hop latencies (REFERENCE.md §2.2).
enum class LinkType { nvlink, pcie, net };

std::string_view to_string(CollectiveOp op);
std::string_view to_string(Protocol protocol);
std::string_view to_string(LinkType link);
// The op named by to_string, or nullopt.
std::optional<CollectiveOp> parse_collective_op(std::string_view name);
// "all_reduce, all_gather, ..." for error messages.
std::string collective_op_names();

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

// Latency steps of a ring (or pipelined chain): 2(P−1) for all-reduce (reduce-scatter then
// all-gather), 1 for send/recv (one hop), P−1 otherwise (all-to-all: P−1 peer exchanges).
int64_t ring_steps(CollectiveOp op, int64_t ranks);

// nccl-tests bus-bandwidth factor: 2(P−1)/P for all-reduce, (P−1)/P for all-gather,
// reduce-scatter and all-to-all, 1 for broadcast, reduce and send/recv; zero for P = 1 (nothing
// moves). Source: NVIDIA/nccl-tests a0b82b2, doc/PERFORMANCE.md (all-reduce, reduce-scatter,
// all-gather, broadcast, reduce) and the GetBw functions of src/alltoall.cu, src/sendrecv.cu.
double bus_bandwidth_factor(CollectiveOp op, int64_t ranks);
// algbw = S / t.
double algorithm_bandwidth_Bps(double bytes, double time_s);
// busbw = algbw · factor.
double bus_bandwidth_Bps(CollectiveOp op, int64_t ranks, double bytes, double time_s);

}  // namespace parallax::models

// File: models/hierarchical.cpp
// Intra-node RS / inter-node collective on S/G / intra-node AG; formula in hierarchical.h.
#include "models/hierarchical.h"

namespace parallax::models {
namespace {

CollectiveCost add(const CollectiveCost& a, const CollectiveCost& b) {
  return {a.time_s + b.time_s, a.latency_s + b.latency_s, a.bandwidth_s + b.bandwidth_s};
}

}  // namespace

CollectiveCost hierarchical_cost(CollectiveOp op, double bytes, const HierarchicalParams& params) {
  const double per_gpu_share = bytes / static_cast<double>(params.intra.ranks());
  switch (op) {
    case CollectiveOp::all_reduce:
      return add(add(ring_cost(CollectiveOp::reduce_scatter, bytes, params.intra),
                     ring_cost(CollectiveOp::all_reduce, per_gpu_share, params.inter)),
                 ring_cost(CollectiveOp::all_gather, bytes, params.intra));
    case CollectiveOp::all_gather:
      return add(ring_cost(CollectiveOp::all_gather, per_gpu_share, params.inter),
                 ring_cost(CollectiveOp::all_gather, bytes, params.intra));
    case CollectiveOp::reduce_scatter:
      return add(ring_cost(CollectiveOp::reduce_scatter, bytes, params.intra),
                 ring_cost(CollectiveOp::reduce_scatter, per_gpu_share, params.inter));
    case CollectiveOp::broadcast:
    case CollectiveOp::reduce:
    case CollectiveOp::all_to_all:
      return add(ring_cost(op, bytes, params.inter), ring_cost(op, bytes, params.intra));
    case CollectiveOp::send_recv:
      return ring_cost(op, bytes, params.inter);
  }
  return {};
}

}  // namespace parallax::models

// File: sim/platform/hierarchical_collective.cpp
#include "sim/platform/hierarchical_collective.h"

#include <algorithm>

#include <fmt/format.h>

#include "sim/platform/ring_collective.h"
#include "sim/platform/sim_platform.h"

namespace parallax {

HierarchicalCollective::HierarchicalCollective(SimPlatform& platform, CollectiveOp op, std::vector<GpuId> group,
                                               Bytes bytes, int box_gpus, CompletionListener& listener, uint64_t tag,
                                               ActivityId id)
    : FlowCollective(platform, op, std::move(group), bytes, listener, tag, id) {
  std::vector<int> nodes;                     // in order of appearance
  std::vector<std::vector<GpuId>> per_node;   // members of each, in group order
  for (GpuId g : group_) {
    const int node = g / std::max(1, box_gpus);
    const auto it = std::find(nodes.begin(), nodes.end(), node);
    if (it == nodes.end()) {
      nodes.push_back(node);
      per_node.push_back({g});
    } else {
      per_node[static_cast<size_t>(it - nodes.begin())].push_back(g);
    }
  }
  const size_t g = per_node.front().size();
  for (size_t n = 0; n < per_node.size(); ++n)
    if (per_node[n].size() != g)
      throw PlatformError(fmt::format("hierarchical {}: node {} holds {} members of the group, node {} holds {}; "
                                      "every node must hold the same number",
                                      to_string(op_), nodes.front(), g, nodes[n], per_node[n].size()));
  std::vector<std::vector<GpuId>> rails(g);
  for (const auto& members : per_node)
    for (size_t k = 0; k < g; ++k) rails[k].push_back(members[k]);
  const Bytes share(bytes_.count() / static_cast<int64_t>(g));
  auto intra = [&](CollectiveOp o) {
    std::vector<Ring> phase;
    if (g > 1) for (const auto& members : per_node) phase.push_back({o, members, bytes_});
    if (!phase.empty()) phases_.push_back(std::move(phase));
  };
  auto inter = [&](CollectiveOp o) {
    std::vector<Ring> phase;
    if (per_node.size() > 1) for (const auto& rail : rails) phase.push_back({o, rail, share});
    if (!phase.empty()) phases_.push_back(std::move(phase));
  };
  switch (op_) {
    case CollectiveOp::all_reduce:
      intra(CollectiveOp::reduce_scatter);
      inter(CollectiveOp::all_reduce);
      intra(CollectiveOp::all_gather);
      break;
    case CollectiveOp::all_gather:
      inter(CollectiveOp::all_gather);
      intra(CollectiveOp::all_gather);
      break;
    case CollectiveOp::reduce_scatter:
      intra(CollectiveOp::reduce_scatter);
      inter(CollectiveOp::reduce_scatter);
      break;
    default:
      throw PlatformError(fmt::format("the hierarchical algorithm runs all_reduce, all_gather and reduce_scatter, not {}",
                                      to_string(op_)));
  }
}

void HierarchicalCollective::start() {
  if (phases_.empty()) {
    finish();
    return;
  }
  start_phase();
}

void HierarchicalCollective::start_phase() {
  running_ = phases_[phase_].size();
  for (const Ring& r : phases_[phase_]) {
    auto child = std::make_unique<RingCollective>(platform_, r.op, r.group, r.bytes, *this, phase_, id_);
    child->make_child();
    platform_.start_child(std::move(child));
  }
}

void HierarchicalCollective::on_complete(uint64_t) {
  if (--running_ > 0) return;
  if (++phase_ == phases_.size()) {
    finish();  // destroys *this
    return;
  }
  start_phase();
}

}  // namespace parallax

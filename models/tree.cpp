// File: models/tree.cpp
// Double binary tree all-reduce; formula in tree.h (REFERENCE.md §2.2).
#include "models/tree.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace parallax::models {

std::optional<CollectiveCost> tree_cost(CollectiveOp op, double bytes, const TreeParams& tree) {
  if (tree.ranks < 1 || tree.nodes < 1 || tree.ranks % tree.nodes != 0) {
    throw std::invalid_argument(fmt::format("tree_cost: ranks = {} must be a positive multiple of nodes = {}",
                                            tree.ranks, tree.nodes));
  }
  if (bytes < 0 || tree.intra.bandwidth_Bps <= 0 || tree.bandwidth_factor <= 0 ||
      (tree.nodes > 1 && tree.inter.bandwidth_Bps <= 0)) {
    throw std::invalid_argument("tree_cost: bytes, bandwidths and bandwidth_factor must be positive");
  }
  if (op != CollectiveOp::all_reduce) return std::nullopt;
  CollectiveCost cost;
  if (tree.ranks == 1) return cost;
  const double per_node = static_cast<double>(tree.ranks / tree.nodes);
  const double depth = std::log2(static_cast<double>(tree.nodes));
  cost.latency_s = tree.base_latency_s +
                   2.0 * ((per_node - 1.0) * tree.intra.latency_s + depth * tree.inter.latency_s);
  double beta = tree.intra.bandwidth_Bps;
  if (tree.nodes > 1) beta = std::min(beta, tree.inter.bandwidth_Bps);
  cost.bandwidth_s = bytes / (0.5 * tree.bandwidth_factor * beta);
  cost.time_s = cost.latency_s + cost.bandwidth_s;
  return cost;
}

}  // namespace parallax::models

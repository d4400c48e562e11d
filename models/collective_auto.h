// File: models/collective_auto.h
// Picks the fastest of the collective algorithms a caller describes (like NCCL's tuner, but over
// our models): each candidate that is present and supports the op is costed, the smallest time
// wins, ties go to the earlier one in the order ring, double_ring, tree, hierarchical.
//
//   AlgorithmCandidates c; c.ring = nccl_uniform_ring(8, 240e9, LinkType::nvlink, Protocol::simple);
//   c.tree = TreeParams{...};
//   AlgorithmChoice best = choose_collective_algorithm(CollectiveOp::all_reduce, 64e6, c);
//   // best.algorithm == "ring" or "tree"; best.cost.time_s
#pragma once

#include <optional>
#include <string_view>

#include "models/collective_cost.h"
#include "models/double_ring.h"
#include "models/hierarchical.h"
#include "models/ring.h"
#include "models/tree.h"

namespace parallax::models {

struct AlgorithmCandidates {
  std::optional<RingParams> ring;
  std::optional<DoubleRingParams> double_ring;
  std::optional<TreeParams> tree;
  std::optional<HierarchicalParams> hierarchical;
};

struct AlgorithmChoice {
  std::string_view algorithm;  // "ring", "double_ring", "tree" or "hierarchical"
  CollectiveCost cost;
};

// Throws std::invalid_argument when no candidate supports `op`.
AlgorithmChoice choose_collective_algorithm(CollectiveOp op, double bytes,
                                            const AlgorithmCandidates& candidates);

}  // namespace parallax::models

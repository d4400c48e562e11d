// File: models/collective_auto.cpp
// Cost every present candidate, keep the fastest (first wins ties).
#include "models/collective_auto.h"

#include <stdexcept>

#include <fmt/format.h>

namespace parallax::models {

AlgorithmChoice choose_collective_algorithm(CollectiveOp op, double bytes,
                                            const AlgorithmCandidates& candidates) {
  std::optional<AlgorithmChoice> best;
  auto consider = [&best](std::string_view name, const CollectiveCost& cost) {
    if (!best || cost.time_s < best->cost.time_s) best = AlgorithmChoice{name, cost};
  };
  if (candidates.ring) consider("ring", ring_cost(op, bytes, *candidates.ring));
  if (candidates.double_ring) {
    consider("double_ring", double_ring_cost(op, bytes, *candidates.double_ring).total);
  }
  if (candidates.tree) {
    if (auto cost = tree_cost(op, bytes, *candidates.tree)) consider("tree", *cost);
  }
  if (candidates.hierarchical) {
    consider("hierarchical", hierarchical_cost(op, bytes, *candidates.hierarchical));
  }
  if (!best) {
    throw std::invalid_argument(
        fmt::format("choose_collective_algorithm: no candidate supports {}", to_string(op)));
  }
  return *best;
}

}  // namespace parallax::models

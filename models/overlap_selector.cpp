// File: models/overlap_selector.cpp
// Predict every strategy, pick the fastest (overlap_selector.h).
#include "models/overlap_selector.h"

#include <stdexcept>

#include "models/overlap_intrafusion.h"
#include "models/overlap_sequential.h"

namespace parallax::models {

std::string_view to_string(OverlapStrategy strategy) {
  switch (strategy) {
    case OverlapStrategy::sequential: return "sequential";
    case OverlapStrategy::intrafusion_ring: return "intrafusion_ring";
    case OverlapStrategy::intrafusion_double_ring: return "intrafusion_double_ring";
    case OverlapStrategy::interdecom: return "interdecom";
  }
  return "?";
}

const StrategyEstimate& select_fastest(std::span<const StrategyEstimate> estimates) {
  if (estimates.empty()) throw std::invalid_argument("select_fastest: no strategies");
  const StrategyEstimate* best = &estimates[0];
  for (const StrategyEstimate& e : estimates)
    if (e.time_s < best->time_s) best = &e;
  return *best;
}

OverlapPrediction predict_overlap(const OverlapProblem& problem, const OverlapMachine& machine,
                                  const OverlapParams& params) {
  OverlapPrediction p;
  p.closed_form = decomposition_closed_form(problem, machine, params);
  p.strategies[0] = {OverlapStrategy::sequential, sequential_cost(problem, machine, params).time_s, 0};
  p.strategies[1] = {OverlapStrategy::intrafusion_ring,
                     intrafusion_cost(problem, machine, params, FusionRings::single).time_s, 0};
  p.strategies[2] = {OverlapStrategy::intrafusion_double_ring,
                     intrafusion_cost(problem, machine, params, FusionRings::double_ring).time_s, 0};
  const int64_t d = p.closed_form.d_star;
  p.strategies[3] = {OverlapStrategy::interdecom, interdecom_cost(problem, machine, params, d).time_s, d};
  p.brute_force_time_s = -1.0;
  for (int64_t c = 1; c <= params.max_degree; ++c) {
    if (!degree_feasible(problem, params, c)) continue;
    const double t = interdecom_cost(problem, machine, params, c).time_s;
    if (p.brute_force_time_s < 0 || t < p.brute_force_time_s) {
      p.brute_force_time_s = t;
      p.brute_force_degree = c;
    }
  }
  const StrategyEstimate& best = select_fastest(p.strategies);
  p.best = best.strategy;
  p.best_time_s = best.time_s;
  return p;
}

}  // namespace parallax::models

// File: models/overlap_selector.h
// Compass's unified performance framework: predict every overlap strategy for one operator pair
// on one machine and pick the fastest. Strategies, in tie-break order:
//   sequential, intrafusion_ring, intrafusion_double_ring, interdecom (at the closed-form d*).
// The brute-force best degree (interdecom_cost over every feasible d) is reported beside d* so
// that the closed form can be judged.
//
//   OverlapPrediction p = predict_overlap(problem, machine, params);
//   p.best  -> "intrafusion_double_ring";  p.strategies[i].time_s; p.closed_form.d_star
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "models/overlap_interdecom.h"
#include "models/overlap_problem.h"

namespace parallax::models {

enum class OverlapStrategy { sequential, intrafusion_ring, intrafusion_double_ring, interdecom };
inline constexpr std::array<OverlapStrategy, 4> kOverlapStrategies{
    OverlapStrategy::sequential, OverlapStrategy::intrafusion_ring,
    OverlapStrategy::intrafusion_double_ring, OverlapStrategy::interdecom};

std::string_view to_string(OverlapStrategy strategy);

struct StrategyEstimate {
  OverlapStrategy strategy = OverlapStrategy::sequential;
  double time_s = 0.0;
  int64_t degree = 0;  // InterDecom's d; 0 for the others
};

struct OverlapPrediction {
  std::array<StrategyEstimate, 4> strategies;  // in kOverlapStrategies order
  DecompositionClosedForm closed_form;
  int64_t brute_force_degree = 1;     // argmin over feasible d of interdecom_cost
  double brute_force_time_s = 0.0;
  OverlapStrategy best = OverlapStrategy::sequential;
  double best_time_s = 0.0;
};

// The smallest time; ties go to the earlier entry. Throws std::invalid_argument if empty.
const StrategyEstimate& select_fastest(std::span<const StrategyEstimate> estimates);

OverlapPrediction predict_overlap(const OverlapProblem& problem, const OverlapMachine& machine,
                                  const OverlapParams& params);

}  // namespace parallax::models

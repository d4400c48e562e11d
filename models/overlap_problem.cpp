// File: models/overlap_problem.cpp
// Shapes, byte counts, feasibility and the lock-step ring step of the overlap models.
#include "models/overlap_problem.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace parallax::models {

std::string_view to_string(OverlapOp op) {
  switch (op) {
    case OverlapOp::ag_gemm: return "ag_gemm";
    case OverlapOp::gemm_rs: return "gemm_rs";
    case OverlapOp::gemm_ar: return "gemm_ar";
  }
  return "?";
}

bool parse_overlap_op(std::string_view name, OverlapOp& op) {
  for (OverlapOp o : {OverlapOp::ag_gemm, OverlapOp::gemm_rs, OverlapOp::gemm_ar}) {
    if (to_string(o) == name) {
      op = o;
      return true;
    }
  }
  return false;
}

CollectiveOp overlap_collective(OverlapOp op) {
  switch (op) {
    case OverlapOp::ag_gemm: return CollectiveOp::all_gather;
    case OverlapOp::gemm_rs: return CollectiveOp::reduce_scatter;
    case OverlapOp::gemm_ar: return CollectiveOp::all_reduce;
  }
  return CollectiveOp::all_reduce;
}

double overlap_collective_bytes(const OverlapProblem& p) {
  const double cols = p.op == OverlapOp::ag_gemm ? static_cast<double>(p.k) : static_cast<double>(p.n);
  return static_cast<double>(p.m) * cols * static_cast<double>(p.dtype_bytes);
}

GemmShape overlap_gemm_shape(const OverlapProblem& p, int64_t rows) {
  GemmShape s;
  s.m = rows;
  s.dtype_bytes = p.dtype_bytes;
  if (p.op == OverlapOp::ag_gemm) {
    s.n = p.n / p.tp;
    s.k = p.k;
  } else {
    s.n = p.n;
    s.k = p.k / p.tp;
  }
  return s;
}

bool degree_feasible(const OverlapProblem& p, const OverlapParams& params, int64_t d) {
  if (d < 1 || d > params.max_degree) return false;
  const int64_t shard_rows = p.m / p.tp;
  return shard_rows % d == 0;
}

void check_overlap_problem(const OverlapProblem& p) {
  if (p.m <= 0 || p.n <= 0 || p.k <= 0 || p.dtype_bytes <= 0)
    throw std::invalid_argument(fmt::format("overlap: m, n, k and dtype_bytes must be > 0, got m={} n={} k={} dtype={}",
                                            p.m, p.n, p.k, p.dtype_bytes));
  if (p.tp < 1) throw std::invalid_argument(fmt::format("overlap: tp must be >= 1, got {}", p.tp));
  if (p.m % p.tp != 0)
    throw std::invalid_argument(fmt::format("overlap: m={} is not divisible by tp={}", p.m, p.tp));
  const int64_t split = p.op == OverlapOp::ag_gemm ? p.n : p.k;
  if (split % p.tp != 0)
    throw std::invalid_argument(fmt::format("overlap: {}={} is not divisible by tp={}",
                                            p.op == OverlapOp::ag_gemm ? "n" : "k", split, p.tp));
}

double ring_step_time_s(const RingParams& ring, double chunk_bytes, double step_overhead_s) {
  double slowest = 0.0;
  for (const Hop& hop : ring.hops) {
    if (!(hop.bandwidth_Bps > 0)) throw std::invalid_argument("ring_step_time_s: a hop has bandwidth <= 0");
    slowest = std::max(slowest, hop.latency_s + chunk_bytes / hop.bandwidth_Bps);
  }
  return step_overhead_s + slowest;
}

double pair_round_step_s(const PairRoundParams& round, double chunk_bytes, double step_overhead_s) {
  double slowest = step_overhead_s;
  for (size_t r = 0; r < round.rings.size(); ++r)
    slowest = std::max(slowest, ring_step_time_s(round.rings[r], round.shares[r] * chunk_bytes, step_overhead_s));
  return slowest;
}

CollectiveCost lockstep_ring_cost(CollectiveOp op, double bytes, const RingParams& ring,
                                  const OverlapParams& params) {
  CollectiveCost cost;
  const int64_t p = ring.ranks();
  if (p <= 1) return cost;
  const double steps = static_cast<double>(ring_steps(op, p));
  const double step_s = ring_step_time_s(ring, bytes / static_cast<double>(p), params.step_overhead_s);
  const double fixed_step_s = ring_step_time_s(ring, 0.0, params.step_overhead_s);
  cost.latency_s = params.collective_base_latency_s + steps * fixed_step_s;
  cost.time_s = params.collective_base_latency_s + steps * step_s;
  cost.bandwidth_s = cost.time_s - cost.latency_s;
  return cost;
}

}  // namespace parallax::models

// File: models/overlap_problem.h
// The vocabulary of the overlap models (REFERENCE.md §4): which operator pair, the logical GEMM,
// the tensor-parallel degree, the machine as the models see it, and the calibratable overheads.
// The strategies are one file each (overlap_sequential.h, overlap_intrafusion.h,
// overlap_interdecom.h); overlap_selector.h predicts them all and picks the fastest.
//
// Operator pairs (Megatron-style tensor parallelism, `m n k` are the logical GEMM C[m×n] =
// A[m×k]·B[k×n], split over `tp` GPUs; S is nccl-tests' byte count):
//   ag_gemm : all-gather A's row shards, then C_i = A·B_i        per-GPU GEMM m × n/tp × k,
//             S = m·k·dtype (the gathered A)
//   gemm_rs : C_partial = A_i·B_i, reduce-scatter over rows       per-GPU GEMM m × n × k/tp,
//             S = m·n·dtype (the partial C)
//   gemm_ar : as gemm_rs, then all-reduce instead                  per-GPU GEMM m × n × k/tp,
//             S = m·n·dtype
// Chunking (IntraFusion ring blocks, InterDecom chunks) always cuts the rows m.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "models/collective_cost.h"
#include "models/double_ring.h"
#include "models/gemm_cost.h"
#include "models/ring.h"

namespace parallax::models {

enum class OverlapOp { ag_gemm, gemm_rs, gemm_ar };

std::string_view to_string(OverlapOp op);
// "ag_gemm" | "gemm_rs" | "gemm_ar"; false if `name` is none of them.
bool parse_overlap_op(std::string_view name, OverlapOp& op);

struct OverlapProblem {
  OverlapOp op = OverlapOp::ag_gemm;
  int64_t m = 0, n = 0, k = 0;  // the logical GEMM
  int64_t dtype_bytes = 2;
  int64_t tp = 1;               // GPUs in the tensor-parallel group
};

// Calibratable overheads and contention figures; every default is an assumption, documented in
// docs/overlap.md §Parameters.
struct OverlapParams {
  int64_t comm_sms = 8;                 // k: SMs a communication kernel holds (NCCL channels,
                                        // the fused kernel's comm CTAs)
  double collective_base_latency_s = 8.4e-6;  // once per collective call (NCCL Ring Simple
                                              // baseLat, REFERENCE.md §2.2)
  double step_overhead_s = 1e-6;        // per ring step: flag/fence handshake [assumption]
  double chunk_sync_s = 2e-6;           // per InterDecom chunk: event record + wait between
                                        // streams [assumption, cf. §1.3's 2–4 µs per call]
  double hbm_bytes_per_link_byte = 2.0; // HBM traffic per byte a GPU sends (REFERENCE.md §4.4:
                                        // ≥2×); 0 turns HBM contention off
  int64_t max_degree = 32;              // InterDecom degrees searched: 1..max_degree
  int64_t default_degree = 4;           // the fixed degree a default uses (TE `pipeline`
                                        // num_splits = 4, REFERENCE.md §4.2)
};

// The machine for one TP group: the GPU's compute model, the single ring (group order) and the
// two rings of the double ring (each hop's bandwidth already shared with the other ring where
// they cross one link; sim/policies/overlap/ring_hops.h builds them from a topology).
// One round of a pair-aware hierarchical all-gather (sim/policies/overlap/pair_schedule.h): rings
// run at once, ring r moving shares[r] of a chunk over each hop; every GPU sends (and receives)
// `chunks` chunks in the round.
struct PairRoundParams {
  std::vector<RingParams> rings;
  std::vector<double> shares;
  double chunks = 1;
};

struct OverlapMachine {
  GpuComputeParams gpu;
  RingParams ring;             // base_latency_s unused here: OverlapParams has it
  DoubleRingParams double_ring;
  // Non-empty: the multi-path slot (intrafusion_double_ring) runs these rounds (all-gather order;
  // a reduce-scatter runs them reversed) instead of the double ring, the synthesis having
  // predicted them faster (sim/policies/overlap/overlap_machine.h).
  std::vector<PairRoundParams> pair_rounds;
};

// The collective the pair runs, and its S in bytes.
CollectiveOp overlap_collective(OverlapOp op);
double overlap_collective_bytes(const OverlapProblem& problem);
// The per-GPU GEMM (table above) with `rows` rows instead of m.
GemmShape overlap_gemm_shape(const OverlapProblem& problem, int64_t rows);

// InterDecom degree d is feasible when 1 <= d <= params.max_degree and d divides m/tp (every
// chunk of every rank's shard has the same whole number of rows).
bool degree_feasible(const OverlapProblem& problem, const OverlapParams& params, int64_t d);

// Throws std::invalid_argument for non-positive dims, tp < 1, or m, n (ag_gemm) or k (gemm_*)
// not divisible by tp.
void check_overlap_problem(const OverlapProblem& problem);

// One lock-step ring step moving `chunk_bytes` over every hop of `ring` (bytes scaled by
// `share` for a ring carrying a fraction of the data): every hop finishes, the slowest sets it.
//   step = step_overhead + max_i (hops[i].latency_s + share·chunk/hops[i].bandwidth_Bps)
double ring_step_time_s(const RingParams& ring, double chunk_bytes, double step_overhead_s);

// One round: step_overhead + the slowest ring's slowest hop (latency + share·chunk / bandwidth).
double pair_round_step_s(const PairRoundParams& round, double chunk_bytes, double step_overhead_s);

// A whole ring collective: base latency + steps · ring_step_time_s(S/P). Matches the DES ring of
// sim/policies/overlap (lock-step, one copy per hop per step).
CollectiveCost lockstep_ring_cost(CollectiveOp op, double bytes, const RingParams& ring,
                                  const OverlapParams& params);

}  // namespace parallax::models

// File: models/overlap_intrafusion.h
// IntraFusion (Compass TA-IntraFusion, FLUX-like): one fused kernel whose communication CTAs hold
// k SMs while the GEMM tiles run on the other sms − k; the ring moves one block of rows per step
// and the GEMM computes the block that just arrived (AG) or the block it sends next (RS).
// REFERENCE.md §2.5 (fused ring step), §3.1 (waves on fewer SMs), §4.4 (HBM contention).
//
//   P      = tp, S = collective bytes, chunk = S/P
//   Tc'    = gemm_time_on_sms_s(per-GPU GEMM, sms − k);   c = Tc'/P   (one block)
//   m      = ring step (overlap_problem.h): single ring ring_step_time_s(ring, chunk);
//            double ring max(step(first, x1·chunk), step(second, x2·chunk)), x1 = β1/(β1+β2)
//   HBM    : during a step the GPU streams the block's GEMM bytes plus h·chunk of ring traffic
//            (h = hbm_bytes_per_link_byte): c_ovl = max(c, (bytes_block + h·chunk)/HBM),
//            m_eff = max(m, h·chunk/HBM)
//   ag_gemm: base + (P−1)·max(c_ovl, m_eff) + c
//   gemm_rs: base + c + (P−1)·max(c_ovl, m_eff)
//   gemm_ar: gemm_rs + (P−1)·m_eff   (the all-gather half has nothing to compute)
//   double_ring with machine.pair_rounds (a pair-aware hierarchical schedule, rounds r = 0..Q−1,
//   each GPU sending n_r chunks; b_0 = 1, b_r = n_{r−1} blocks run beside round r):
//            m_r = max(pair_round_step_s(r, chunk), h·n_r·chunk/HBM)
//            ag_gemm = base + Σ_r max(b_r·c, (b_r·bytes_block + h·n_r·chunk)/HBM, m_r) + n_{Q−1}·c
//            gemm_rs: the same rounds reversed (the same sum); gemm_ar: + Σ_r m_r;
//            taken only where it is below the double ring's time (pair_schedule = true)
//
// Example (no overheads, h = 0): Tc' = 4 ms, P = 4, m = 0.5 ms: c = 1 ms, ag_gemm =
// 3·max(1, 0.5) + 1 = 4 ms, against 4 + 1.5 = 5.5 ms sequential on the same SMs.
#pragma once

#include "models/overlap_problem.h"

namespace parallax::models {

enum class FusionRings { single, double_ring };

struct IntraFusionCost {
  double block_compute_s = 0.0;  // c
  double block_compute_overlapped_s = 0.0;  // c_ovl
  double comm_step_s = 0.0;      // m_eff
  double first_share = 1.0;      // x1 (1 for a single ring or the pair schedule)
  double time_s = 0.0;
  bool pair_schedule = false;    // the double ring's slot runs machine.pair_rounds (faster here)
};

IntraFusionCost intrafusion_cost(const OverlapProblem& problem, const OverlapMachine& machine,
                                 const OverlapParams& params, FusionRings rings);

// SMs the GEMM keeps when k are given to communication: max(1, sms − k).
int64_t gemm_sms_beside_comm(const GpuComputeParams& gpu, const OverlapParams& params);

}  // namespace parallax::models

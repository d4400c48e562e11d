// File: models/calibrated_defaults.h
// Hardware numbers (REFERENCE.md §1.1, §1.2) and the fitted model parameters for the GPUs we have
// measurements of, so that a caller without its own calibration gets sensible numbers. The same
// values are written as data in models/calibration/*.yaml (checked equal by a test); models/
// itself never parses YAML. Refit and print them with:
//   ninja -C build-models models/parallax-validate-models && build-models/models/parallax-validate-models
// Fitted against: microsoft/vidur 7d47513 profiling data, copied under tests/data/vidur/.
#pragma once

#include "models/gemm_cost.h"
#include "models/ring_fit.h"

namespace parallax::models {

// A100 SXM 80 GB: 108 SMs, 312 TFLOP/s bf16 dense, 2.039 TB/s (REFERENCE.md §1.1).
GpuComputeParams a100_sxm_hardware();
// H100 SXM5: 132 SMs, 989.4 TFLOP/s bf16 dense, 3.35 TB/s (REFERENCE.md §1.1).
GpuComputeParams h100_sxm_hardware();

// Hardware + GEMM parameters fitted on vidur's Llama-2-7B operator times.
GpuComputeParams a100_sxm_gemm_calibrated();
GpuComputeParams h100_sxm_gemm_calibrated();

// Per-GPU NVLink bandwidth, one direction: A100 12 × 25 GB/s, H100 18 × 25 GB/s
// (REFERENCE.md §1.2).
inline constexpr double kA100NvlinkPerGpu_Bps = 300e9;
inline constexpr double kH100NvlinkPerGpu_Bps = 450e9;

// Ring all-reduce parameters fitted on vidur's DGX (NVSwitch) all-reduce times, 2/4/8 GPUs.
RingFit a100_dgx_ring_calibrated();
RingFit h100_dgx_ring_calibrated();

}  // namespace parallax::models

// File: models/validation/nccl_validation.h
// NCCL's protocol model (models/nccl_tuning.h) against vidur's all-reduce medians, two ways,
// summarised by GPU count × size band (ring_validation.h's bands), on the single-node rows
// (2/4/8 GPUs on one NVSwitch) or the two-node rows (2 × 1/2/4/8 GPUs over the network):
//   preset:     nccl_candidates for the box (NCCL's constants and the box's NICs, nothing
//               fitted): every row is evaluated (nothing was fitted on any of them);
//   calibrated: fit_protocols per GPU count on the training sizes, errors on the held-out sizes
//               (every 4th distinct size, from the 4th on, as ring_validation.h).
#pragma once

#include <vector>

#include "models/nccl_tuning.h"
#include "models/validation/ring_validation.h"

namespace parallax::models {

enum class VidurNodes { one, two };

struct NcclValidation {
  ErrorSummary all;
  std::vector<RingBandErrors> by_ranks_and_band;
  std::vector<RingBandErrors> from_1MiB;  // per GPU count, rows of 1 MiB and up (band ">=1MiB")
};

// The boxes of vidur's data as NCCL plans them, NVLS off (docs/models.md says why), each GPU with
// one NIC of its own (REFERENCE.md §1.6: NDv4 / DGX A100 one HDR 200 Gb/s = 25 GB/s per GPU;
// ND H100 v5 / DGX H100 one NDR 400 Gb/s = 50 GB/s per GPU), latencyInter 0 as NCCL's IB
// transport reports it (NVIDIA/nccl src/transport/net_ib/init.cc: props->latency = 0).
NcclBox dgx_a100_nccl_box();
NcclBox dgx_h100_nccl_box();

// `box.net` gives the NICs; its node count is set from each row (num_workers / devices_per_node).
NcclValidation validate_nccl_preset(const std::vector<VidurAllReduceRow>& rows, const NcclBox& box, VidurNodes nodes);
NcclValidation validate_nccl_calibrated(const std::vector<VidurAllReduceRow>& rows, VidurNodes nodes);

}  // namespace parallax::models

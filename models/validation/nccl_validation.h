// File: models/validation/nccl_validation.h
// NCCL's protocol model (models/nccl_tuning.h) against vidur's single-node NVSwitch all-reduce
// medians, two ways, summarised by GPU count × size band (ring_validation.h's bands):
//   preset:     nccl_candidates for the box (NCCL's constants, nothing fitted): every row is
//               evaluated (nothing was fitted on any of them);
//   calibrated: fit_protocols per GPU count on the training sizes, errors on the held-out sizes
//               (every 4th distinct size, from the 4th on, as ring_validation.h).
#pragma once

#include <vector>

#include "models/nccl_tuning.h"
#include "models/validation/ring_validation.h"

namespace parallax::models {

struct NcclValidation {
  ErrorSummary all;
  std::vector<RingBandErrors> by_ranks_and_band;
};

NcclValidation validate_nccl_preset(const std::vector<VidurAllReduceRow>& rows, const NcclBox& box);
NcclValidation validate_nccl_calibrated(const std::vector<VidurAllReduceRow>& rows);

}  // namespace parallax::models

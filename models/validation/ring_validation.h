// File: models/validation/ring_validation.h
// Fit-and-hold-out check of the ring model against vidur's single-node NVSwitch all-reduce
// medians (2/4/8 GPUs): sizes are split (every 4th distinct size, from the 4th on, held out),
// fit_uniform_ring fits one (base, α, η) per GPU type on the rest, and held-out relative errors
// are summarised by GPU count × size band (< 64 KiB, 64 KiB–8 MiB, > 8 MiB).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/error_stats.h"
#include "models/ring_fit.h"
#include "models/validation/vidur_data.h"

namespace parallax::models {

struct RingBandErrors {
  int64_t ranks = 0;
  std::string band;
  ErrorSummary errors;
};

struct RingValidation {
  RingFit fit;
  ErrorSummary held_out;
  std::vector<RingBandErrors> by_ranks_and_band;  // ranks ascending, bands small → large
};

// "<64KiB", "64KiB-8MiB" or ">8MiB".
std::string size_band(double bytes);

// Only rows with devices_per_node == ranks (one node) are used.
RingValidation fit_and_validate_ring(const std::vector<VidurAllReduceRow>& rows, double link_Bps);

// Evaluates a given fit on the held-out single-node rows.
RingValidation validate_ring(const std::vector<VidurAllReduceRow>& rows, const RingFit& fit);

}  // namespace parallax::models

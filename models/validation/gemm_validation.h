// File: models/validation/gemm_validation.h
// Fit-and-hold-out check of the GEMM model against the vidur Llama-2-7B operator times: token
// counts are split (every 4th distinct count, from the 4th on, held out: all operators and TP
// degrees of a held-out count are unseen by the fit), the model is fitted on the rest with
// fit_gemm_params, and relative errors on the held-out rows are summarised overall and by group.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "models/error_stats.h"
#include "models/gemm_cost.h"
#include "models/validation/vidur_data.h"

namespace parallax::models {

struct GroupErrors {
  std::string group;
  ErrorSummary errors;
};

struct GemmValidation {
  GpuComputeParams params;     // the parameters evaluated
  double train_rms_log_error = 0.0;
  ErrorSummary held_out;       // every held-out row
  std::vector<GroupErrors> by_operator;
  std::vector<GroupErrors> by_tp;
  std::vector<GroupErrors> by_tokens;  // m < 128, 128 ≤ m < 1024, m ≥ 1024
};

// The held-out token counts: ranks 3, 7, 11, ... among the distinct counts, in increasing order.
std::set<int64_t> held_out_token_counts(const std::vector<VidurGemmRow>& rows);

// Fits on the training rows, evaluates on the held-out rows.
GemmValidation fit_and_validate_gemm(const std::vector<VidurGemmRow>& rows,
                                     const GpuComputeParams& hardware);

// Evaluates given parameters on the held-out rows (no fitting).
GemmValidation validate_gemm(const std::vector<VidurGemmRow>& rows, const GpuComputeParams& params);

}  // namespace parallax::models

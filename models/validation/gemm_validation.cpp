// File: models/validation/gemm_validation.cpp
// Split by token count, fit, summarise held-out relative errors by group.
#include "models/validation/gemm_validation.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <set>

#include <fmt/format.h>

#include "models/gemm_fit.h"

namespace parallax::models {
namespace {

std::string token_band(int64_t m) {
  if (m < 128) return "m < 128";
  if (m < 1024) return "128 <= m < 1024";
  return "m >= 1024";
}

std::vector<GroupErrors> to_groups(const std::map<std::string, std::vector<double>>& by) {
  std::vector<GroupErrors> out;
  for (const auto& [name, errors] : by) out.push_back({name, summarize_errors(errors)});
  return out;
}

}  // namespace

std::set<int64_t> held_out_token_counts(const std::vector<VidurGemmRow>& rows) {
  std::set<int64_t> distinct;
  for (const VidurGemmRow& r : rows) distinct.insert(r.tokens);
  std::set<int64_t> held;
  int64_t rank = 0;
  for (int64_t t : distinct) {
    if (rank++ % 4 == 3) held.insert(t);
  }
  return held;
}

GemmValidation validate_gemm(const std::vector<VidurGemmRow>& rows, const GpuComputeParams& params) {
  const std::set<int64_t> held = held_out_token_counts(rows);
  GemmValidation out;
  out.params = params;
  std::vector<double> all;
  std::map<std::string, std::vector<double>> by_op, by_tp, by_tokens;
  for (const VidurGemmRow& r : rows) {
    if (!held.contains(r.tokens)) continue;
    const double e = relative_error(gemm_time_s(r.shape, params), r.measured_s);
    all.push_back(e);
    by_op[r.op].push_back(e);
    by_tp[fmt::format("TP={}", r.tp)].push_back(e);
    by_tokens[token_band(r.tokens)].push_back(e);
  }
  out.held_out = summarize_errors(all);
  out.by_operator = to_groups(by_op);
  out.by_tp = to_groups(by_tp);
  out.by_tokens = to_groups(by_tokens);
  return out;
}

GemmValidation fit_and_validate_gemm(const std::vector<VidurGemmRow>& rows,
                                     const GpuComputeParams& hardware) {
  std::vector<GemmSample> train;
  const std::set<int64_t> held = held_out_token_counts(rows);
  for (const VidurGemmRow& r : rows) {
    if (!held.contains(r.tokens)) train.push_back({r.shape, r.measured_s});
  }
  constexpr std::array<int64_t, 3> kTiles{64, 128, 256};
  const GemmFitResult fit = fit_gemm_params(train, hardware, kTiles);
  GemmValidation out = validate_gemm(rows, fit.params);
  out.train_rms_log_error = fit.rms_log_error;
  return out;
}

}  // namespace parallax::models

// File: models/validation/kernel_model_validation_test.cpp
// The tile-level kernel model (models/op_kernels.h) against vidur's measured Llama-2-7B GEMMs
// (tests/data/vidur, 4,176 rows per GPU), with nothing fitted to them: preset rates (peak, HBM,
// SMs), η_c = 0.75 (gemm_cost's default), CUTLASS-like tiles, and a fixed 4 µs per kernel
// [assumption: REFERENCE.md §1.3's 2-4 µs per call; the presets leave kernel_launch_us at 0 until
// the hardware sweep fits it]. docs/models.md quotes the figures this prints.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "models/op_kernels.h"
#include "models/validation/vidur_data.h"

namespace parallax {
namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double median_error(const char* csv, const char* gpu, int sms, double peak, double hbm) {
  const auto rows = models::read_vidur_gemm_csv(models::source_dir() + "/tests/data/vidur/compute/" + csv);
  EXPECT_GT(rows.size(), 4000u);
  const DeviceRates d{sms, peak, hbm, 2 * hbm / sms, 0.75, 4e-6};
  std::vector<double> all, small;
  for (const auto& r : rows) {
    const OpKernel k = gemm_kernel(r.shape.m, r.shape.n, r.shape.k, 1, data_type("bf16"), d, gpu_limits_for(gpu), sms);
    const double e = std::abs(kernel_time_s(k.shape, d, sms, 1.0) - r.measured_s) / r.measured_s;
    all.push_back(e);
    if (r.tokens < 128) small.push_back(e);
  }
  std::sort(all.begin(), all.end());
  std::printf("%s: %zu rows, median %.1f %%, P95 %.1f %%, m < 128 median %.1f %%\n", gpu, all.size(),
              100 * median(all), 100 * all[all.size() * 95 / 100], 100 * median(small));
  return median(all);
}

// Measured here (kernel_model_validation): A100 median 6.6 %, H100 8.3 %; the fitted
// models/gemm_cost reaches 6.0 % and 7.8 % on its held-out rows. A 10 % bound leaves room for
// nothing but a broken model.
TEST(KernelModelValidation, UncalibratedTilesFollowVidurGemms) {
  EXPECT_LT(median_error("a100/llama2_7b_gemm.csv", "A100-SXM4-80GB", 108, 312e12, 2039e9), 0.10);
  EXPECT_LT(median_error("h100/llama2_7b_gemm.csv", "H100-SXM5", 132, 989e12, 3350e9), 0.10);
}

}  // namespace
}  // namespace parallax

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

// Whole models at batch 1 against Torpor Table 4's "Native" column (V100, PyTorch eager; REFERENCE.md
// §5.6), fp32 at the V100's 15.7 TFLOP/s. Eager mode issues one kernel per operator from the CPU,
// so a small kernel costs at least the host's dispatch time c: T = Σ max(t_kernel, c), with c
// fitted on ResNet-50 alone and the other seven models held out. BERT-large QA is compute-bound
// and needs no c. Measured here: c = 63 µs; held-out errors +9 % (ResNet-101), +30 % (ResNet-152),
// +25 % / +24 % (DenseNet-169/201), +5 % (Inception v3), -11 % (EfficientNet-B0), +9 % (BERT-QA);
// median 11 %. The deeper models' per-operator cost is lower than ResNet-50's (49-51 µs), which a
// single constant cannot follow.
TEST(KernelModelValidation, EagerModelsAgainstTorporTable4) {
  const DeviceRates v100{80, 15.7e12, 900e9, 2 * 900e9 / 80, 0.75, 0};
  const GpuLimits lim = gpu_limits_for("V100-SXM2-32GB");
  const DataType fp32{"fp32", 4, 1.0};
  const auto eager_s = [&](const char* model, double dispatch_s) {
    double t = 0;
    for (const TimedKernel& k : model_latency(network_shape(model, 1), fp32, v100, lim, 80, 1.0).kernels)
      t += std::max(k.time_s, dispatch_s);
    return t;
  };
  double lo = 0, hi = 1e-3;
  for (int i = 0; i < 60; ++i) {
    const double mid = (lo + hi) / 2;
    (eager_s("resnet50", mid) < 11e-3 ? lo : hi) = mid;
  }
  std::printf("dispatch per operator fitted on ResNet-50 (11 ms): %.1f us\n", lo * 1e6);
  EXPECT_GT(lo, 20e-6);
  EXPECT_LT(lo, 120e-6);
  struct Row {
    const char* model;
    double native_s;
  };
  const Row held_out[] = {{"resnet101", 20e-3},   {"resnet152", 25e-3},    {"densenet169", 30e-3}, {"densenet201", 36e-3},
                          {"inception_v3", 19e-3}, {"efficientnet_b0", 17e-3}, {"bert_qa", 42e-3}};
  std::vector<double> errors;
  for (const Row& r : held_out) {
    const double p = eager_s(r.model, lo);
    errors.push_back(std::abs(p - r.native_s) / r.native_s);
    std::printf("%-16s predicted %6.2f ms, measured %4.0f ms, %+5.1f %%\n", r.model, p * 1e3, r.native_s * 1e3,
                100 * (p - r.native_s) / r.native_s);
  }
  EXPECT_LT(median(errors), 0.20);
  // The compute-bound model owes nothing to the fitted dispatch time.
  EXPECT_NEAR(eager_s("bert_qa", 0) / 42e-3, 1.0, 0.15);
}

}  // namespace
}  // namespace parallax

// File: models/fit_test.cpp
// The fitters recover known parameters from synthetic data, and the error summary definitions.
#include <array>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "models/error_stats.h"
#include "models/gemm_fit.h"
#include "models/ring.h"
#include "models/ring_fit.h"

namespace parallax::models {
namespace {

TEST(ErrorStats, MedianP95MaxMean) {
  // {0.1, 0.2, 0.3, 0.4}: median (0.2+0.3)/2 = 0.25; P95 = ceil(3.8) = 4th = 0.4; mean 0.25.
  const ErrorSummary s = summarize_errors({0.4, 0.1, 0.3, 0.2});
  EXPECT_EQ(s.count, 4);
  EXPECT_DOUBLE_EQ(s.median, 0.25);
  EXPECT_DOUBLE_EQ(s.p95, 0.4);
  EXPECT_DOUBLE_EQ(s.max, 0.4);
  EXPECT_DOUBLE_EQ(s.mean, 0.25);
  // 20 values 1..20: P95 = ceil(19) = 19th = 19; median (10+11)/2.
  std::vector<double> v;
  for (int i = 1; i <= 20; ++i) v.push_back(i);
  EXPECT_DOUBLE_EQ(summarize_errors(v).p95, 19.0);
  EXPECT_DOUBLE_EQ(summarize_errors(v).median, 10.5);
  EXPECT_DOUBLE_EQ(relative_error(1.1, 1.0), 0.10000000000000009);
  EXPECT_EQ(summarize_errors({}).count, 0);
}

TEST(GemmFit, RecoversSyntheticParameters) {
  GpuComputeParams truth;
  truth.sms = 108;
  truth.peak_flops = 312e12;
  truth.hbm_Bps = 2.039e12;
  truth.tile_m = 64;   // small tiles keep skinny shapes memory-bound, so eta_mem is identifiable
  truth.tile_n = 64;
  truth.eta_max = 0.72;
  truth.k_half = 150.0;
  truth.eta_mem = 0.78;
  truth.overhead_s = 4e-6;
  std::vector<GemmSample> samples;
  int memory_bound = 0;
  for (int64_t m : {1, 16, 96, 200, 512, 1000, 2048, 4096}) {
    for (int64_t n : {512, 1536, 4096, 11008}) {
      for (int64_t k : {256, 512, 1376, 4096, 11008}) {
        const GemmShape s{m, n, k, 2};
        samples.push_back({s, gemm_time_s(s, truth)});
        memory_bound += gemm_cost(s, truth).memory_bound ? 1 : 0;
      }
    }
  }
  ASSERT_GT(memory_bound, 10);
  GpuComputeParams start = truth;
  start.eta_max = 0.5;
  start.k_half = 500.0;
  start.eta_mem = 0.5;
  start.overhead_s = 1e-5;
  constexpr std::array<int64_t, 3> kTiles{64, 128, 256};
  const GemmFitResult fit = fit_gemm_params(samples, start, kTiles);
  EXPECT_LT(fit.rms_log_error, 1e-6);
  EXPECT_EQ(fit.params.tile_m, 64);
  EXPECT_EQ(fit.params.tile_n, 64);
  EXPECT_NEAR(fit.params.eta_max, 0.72, 1e-4);
  EXPECT_NEAR(fit.params.k_half, 150.0, 0.1);
  EXPECT_NEAR(fit.params.eta_mem, 0.78, 1e-4);
  EXPECT_NEAR(fit.params.overhead_s, 4e-6, 1e-10);
}

TEST(RingFit, RecoversSyntheticParameters) {
  // base 20 µs, α 0.7 µs, η 0.6 of 300 GB/s; exact data → exact recovery.
  RingFit truth;
  truth.link_Bps = 300e9;
  truth.base_latency_s = 20e-6;
  truth.step_latency_s = 0.7e-6;
  truth.bandwidth_efficiency = 0.6;
  std::vector<CollectiveSample> samples;
  for (int64_t p : {2, 4, 8}) {
    for (double bytes = 4096; bytes < 1e9; bytes *= 3) {
      const double t = ring_cost(CollectiveOp::all_reduce, bytes, truth.ring(p)).time_s;
      samples.push_back({CollectiveOp::all_reduce, p, bytes, t});
    }
  }
  const RingFit fit = fit_uniform_ring(samples, 300e9);
  EXPECT_NEAR(fit.base_latency_s, 20e-6, 1e-12);
  EXPECT_NEAR(fit.step_latency_s, 0.7e-6, 1e-12);
  EXPECT_NEAR(fit.bandwidth_efficiency, 0.6, 1e-9);
}

TEST(RingFit, PinsNegativeLatencyAtZero) {
  // Pure bandwidth data plus a small negative offset would give base < 0; the fit pins it at 0.
  std::vector<CollectiveSample> samples;
  for (int64_t p : {2, 4, 8}) {
    for (double bytes = 1e6; bytes < 1e9; bytes *= 2) {
      const double t = 2.0 * (p - 1) / p * bytes / 100e9 - 1e-7;
      samples.push_back({CollectiveOp::all_reduce, p, bytes, t});
    }
  }
  const RingFit fit = fit_uniform_ring(samples, 100e9);
  EXPECT_GE(fit.base_latency_s, 0.0);
  EXPECT_GE(fit.step_latency_s, 0.0);
  EXPECT_NEAR(fit.bandwidth_efficiency, 1.0, 0.01);
}

}  // namespace
}  // namespace parallax::models

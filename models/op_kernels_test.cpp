// File: models/op_kernels_test.cpp
#include "models/op_kernels.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace parallax {
namespace {

const DeviceRates kH100{132, 989e12, 3350e9, 2 * 3350e9 / 132, 0.75, 0};

TEST(OpKernels, ResidentBlocksTakeTheTightestLimit) {
  const GpuLimits h = gpu_limits_for("H100-SXM5");
  EXPECT_EQ(h.shared_memory_per_sm, 228 * 1024);
  // 256 threads: 8 by threads; 168 registers each: 65536 / 43008 = 1.
  EXPECT_EQ(resident_blocks(h, {256, 168, 49152}), 1);
  // 128 threads x 128 registers: 4 by registers (16 by threads, 9 by 24 KiB of shared memory).
  EXPECT_EQ(resident_blocks(h, {128, 128, 24576}), 4);
  // Shared memory binds: 100 KiB blocks, two per SM on sm_90, one on sm_80 (164 KiB), none on sm_70.
  EXPECT_EQ(resident_blocks(h, {64, 32, 100 * 1024}), 2);
  EXPECT_EQ(resident_blocks(gpu_limits_for("A100-SXM4-80GB"), {64, 32, 100 * 1024}), 1);
  EXPECT_EQ(resident_blocks(gpu_limits_for("V100-SXM2-32GB"), {64, 32, 100 * 1024}), 0);
  // The A6000's SM holds 1536 threads, 16 blocks.
  EXPECT_EQ(resident_blocks(gpu_limits_for("RTX-A6000"), {256, 32, 0}), 6);
  EXPECT_THROW(gpu_limits_for("K80"), std::invalid_argument);
}

TEST(OpKernels, ALargeGemmUsesTheLargestTileAtNearPeak) {
  const OpKernel k = gemm_kernel(8192, 8192, 8192, 1, data_type("bf16"), kH100, gpu_limits_for("H100-SXM5"), 132);
  EXPECT_NE(k.config.find("tile 256x128"), std::string::npos) << k.config;
  const double t = kernel_time_s(k.shape, kH100, 132, 1.0);
  const double rate = 2.0 * 8192 * 8192 * 8192 / t;
  // 2048 tiles over 132 SMs: 16 waves with the last 0.52 full, q = 1.03; η_c = 0.75.
  EXPECT_GT(rate, 0.70 * 989e12);
  EXPECT_LT(rate, 0.75 * 989e12);
}

TEST(OpKernels, AGemvStreamsItsWeights) {
  // One token through a 4096 x 4096 layer: 32 MiB of weights, 8 k FLOPs per weight pair — memory-bound.
  const OpKernel k = gemm_kernel(1, 4096, 4096, 1, data_type("bf16"), kH100, gpu_limits_for("H100-SXM5"), 132);
  const double t = kernel_time_s(k.shape, kH100, 132, 1.0);
  const double stream = 4096.0 * 4096 * 2 / 3350e9;
  EXPECT_GE(t, stream);
  EXPECT_LT(t, 1.1 * stream) << k.config;
  // Few SMs cannot stream it as fast: 16 SMs are capped at 16 x 2 x HBM / 132.
  const OpKernel k16 = gemm_kernel(1, 4096, 4096, 1, data_type("bf16"), kH100, gpu_limits_for("H100-SXM5"), 16);
  const double capped = 4096.0 * 4096 * 2 / (16 * 2 * 3350e9 / 132);
  EXPECT_NEAR(kernel_time_s(k16.shape, kH100, 16, 1.0) / capped, 1.0, 0.1) << k16.config;
}

TEST(OpKernels, WaveQuantisationShowsInGemmTime) {
  // The heuristic picks the fastest tile and split per shape, so twice the rows costs at most
  // twice the time (it could always run the smaller problem's choice twice) and at least the
  // larger share of work once the GPU is full.
  const GpuLimits h = gpu_limits_for("H100-SXM5");
  const auto time = [&](int64_t m) {
    const OpKernel k = gemm_kernel(m, 1024, 4096, 1, data_type("bf16"), kH100, h, 132);
    return kernel_time_s(k.shape, kH100, 132, 1.0);
  };
  // Twice the rows never takes more than twice the time, and never less than the work's share.
  EXPECT_LE(time(2 * 2048), 2 * time(2048) * 1.0001);
  EXPECT_GE(time(2 * 2048), 1.5 * time(2048));
}

TEST(OpKernels, ResNet50OnAQuarterOfAnH200) {
  // The bar of issue 17: batch 1 on 33 of 132 SMs is less than 3x slower than on all of them (it
  // cannot fill the GPU), batch 64 more than 2x slower (it can).
  const DeviceRates h200{132, 989e12, 4800e9, 2 * 4800e9 / 132, 0.75, 0};
  const GpuLimits lim = gpu_limits_for("H200-SXM");
  const auto latency = [&](int batch, int sms) {
    return model_latency(network_shape("resnet50", batch), data_type("tf32"), h200, lim, sms, 1.0).latency_s;
  };
  EXPECT_LT(latency(1, 33) / latency(1, 132), 3.0);
  EXPECT_GT(latency(64, 33) / latency(64, 132), 2.0);
  // Half the bandwidth slows the memory-bound batch-1 pass, not past 2x.
  const double half = model_latency(network_shape("resnet50", 1), data_type("tf32"), h200, lim, 132, 0.5).latency_s;
  EXPECT_GT(half, latency(1, 132));
  EXPECT_LE(half, 2 * latency(1, 132) * 1.0001);
  EXPECT_THROW(model_latency(network_shape("resnet50", 1), data_type("tf32"), h200, lim, 133, 1.0), std::invalid_argument);
}

}  // namespace
}  // namespace parallax

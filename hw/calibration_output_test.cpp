// File: hw/calibration_output_test.cpp
#include "hw/calibration_output.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "hw/calibration_summary.h"
#include "hw/cuda_error_message.h"

namespace parallax::hw {
namespace {

models::MeasurementProvenance h200_provenance() {
  return {"NVIDIA H200", 132, "580.65.06", "13.0", 1980.0, std::nullopt, "2026-11-30T10:00:00Z", "abc123"};
}

models::Measurement row(models::MeasurementFamily f, std::string id, std::vector<std::pair<std::string, std::string>> config,
                        double value) {
  models::Measurement m;
  m.family = f;
  m.case_id = std::move(id);
  m.config = std::move(config);
  m.value = value;
  m.reps = 20;
  m.provenance = h200_provenance();
  return m;
}

TEST(CalibrationOutput, ProvenanceJson) {
  const nlohmann::json j = nlohmann::json::parse(format_provenance_json(h200_provenance(), 7));
  EXPECT_EQ(j["gpu_name"], "NVIDIA H200");
  EXPECT_EQ(j["sm_clock_mhz"], 1980);
  EXPECT_TRUE(j["mem_clock_mhz"].is_null());
  EXPECT_EQ(j["rows"], 7);
}

TEST(CalibrationOutput, RepStatsMedianAndSampleStdev) {
  const RepStats s = rep_stats({3, 1, 2, 10});
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_NEAR(s.stdev, 4.0824829046, 1e-9);
  EXPECT_DOUBLE_EQ(rep_stats({4}).median, 4);
  EXPECT_DOUBLE_EQ(rep_stats({4}).stdev, 0);
}

TEST(CudaErrorMessage, NamesCallDeviceAndError) {
  EXPECT_EQ(cuda_error_message("cudaMalloc(&p, bytes)", 0, "NVIDIA H200", "cudaErrorMemoryAllocation", "out of memory"),
            "cudaMalloc(&p, bytes) failed on GPU 0 (NVIDIA H200): cudaErrorMemoryAllocation: out of memory");
  EXPECT_EQ(cuda_error_message("cudaGetDeviceCount(&n)", -1, "", "cudaErrorInsufficientDriver",
                               "CUDA driver version is insufficient for CUDA runtime version"),
            "cudaGetDeviceCount(&n) failed: cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA "
            "runtime version");
  EXPECT_EQ(cuda_error_message("ncclAllReduce(...)", 1, "", "NCCL error 2", "unhandled system error"),
            "ncclAllReduce(...) failed on GPU 1: NCCL error 2: unhandled system error");
  // Without a driver the runtime's "insufficient driver" is not blamed on a driver version.
  EXPECT_EQ(no_gpu_message("cudaErrorInsufficientDriver", "CUDA driver version is insufficient for CUDA runtime version", false),
            "no CUDA GPU found: no NVIDIA driver is installed (libcuda.so.1 cannot be loaded), so no GPU can be used");
  EXPECT_EQ(no_gpu_message("cudaErrorInsufficientDriver", "CUDA driver version is insufficient for CUDA runtime version", true),
            "no CUDA GPU found: the NVIDIA driver is older than this build's CUDA runtime (cudaErrorInsufficientDriver: CUDA "
            "driver version is insufficient for CUDA runtime version)");
  EXPECT_EQ(no_gpu_message("cudaErrorNoDevice", "no CUDA-capable device is detected", true),
            "no CUDA GPU found: the NVIDIA driver is installed but sees no GPU (cudaErrorNoDevice: no CUDA-capable device is "
            "detected)");
  EXPECT_EQ(no_gpu_message("", "", true), "no CUDA GPU found: the NVIDIA driver is installed but reports no GPU");
}

TEST(CalibrationSummary, HeadlinesAgainstTheCeilings) {
  using F = models::MeasurementFamily;
  const std::vector<models::Measurement> rows{
      row(F::gemm, "gemm/bf16/8192x8192x8192", {{"dtype", "bf16"}, {"m", "8192"}, {"n", "8192"}, {"k", "8192"}},
          2 * 8192.0 * 8192 * 8192 / 750e12),
      row(F::copy, "copy/d2d/none/1073741824", {{"kind", "d2d"}, {"host_memory", "none"}, {"bytes", "1073741824"}},
          2.0 * 1073741824 / 4.0e12),
      row(F::sm_scaling, "sm_scaling/stream/8", {{"kernel", "stream"}, {"sms", "8"}, {"flops", "0"}, {"dram_bytes", "1e9"}},
          1e9 / (8 * 55e9)),
      row(F::sm_scaling, "sm_scaling/stream/132", {{"kernel", "stream"}, {"sms", "132"}, {"flops", "0"}, {"dram_bytes", "1e9"}},
          1e9 / 4.1e12),
  };
  const std::string s = calibration_summary(rows);
  EXPECT_NE(s.find("stream per SM        55.0 GB/s on 8 SMs (best 4.10 TB/s"), std::string::npos) << s;
  EXPECT_NE(s.find("bf16 GEMM best      750.0 TFLOP/s (95% of 789"), std::string::npos) << s;
  EXPECT_NE(s.find("device copy best     4.00 TB/s reads+writes (93% of 4.3)"), std::string::npos) << s;
}

}  // namespace
}  // namespace parallax::hw

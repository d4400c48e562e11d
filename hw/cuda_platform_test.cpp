// File: hw/cuda_platform_test.cpp
// CudaPlatform and the CUDA error checks on a real GPU. Without one every test skips with the
// reason the CUDA runtime gives (cudaGetDeviceCount's error text), so CI shows why.
#include "hw/cuda_platform.h"

#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "hw/cuda_check.h"
#include "hw/device_probe.h"
#include "hw/hw_backend.h"

namespace parallax::hw {
namespace {

std::string no_gpu_reason() {
  try {
    cuda_device_count();
    return {};
  } catch (const HardwareUnavailable& e) {
    return e.what();
  }
}

#define SKIP_WITHOUT_GPU()                                   \
  do {                                                       \
    const std::string reason = no_gpu_reason();              \
    if (!reason.empty()) GTEST_SKIP() << reason;             \
  } while (0)

struct Recorder final : CompletionListener {
  Platform* platform = nullptr;
  std::vector<std::pair<uint64_t, Time>> seen;
  void on_complete(uint64_t tag) override { seen.push_back({tag, platform->now()}); }
};

TEST(CudaCheck, WithoutAGpuTheCountFailsWithTheOneLineMessage) {
  const std::string reason = no_gpu_reason();
  if (reason.empty()) GTEST_SKIP() << "a GPU is present";
  EXPECT_EQ(reason.rfind("no CUDA GPU found: ", 0), 0u) << reason;
  EXPECT_EQ(reason.find('\n'), std::string::npos);
}

TEST(CudaPlatform, WithoutAGpuConstructionSaysWhy) {
  const std::string reason = no_gpu_reason();
  if (reason.empty()) GTEST_SKIP() << "a GPU is present";
  try {
    CudaPlatform p;
    FAIL() << "constructed a CudaPlatform without a GPU";
  } catch (const HardwareUnavailable& e) {
    EXPECT_EQ(std::string(e.what()), reason);
  }
}

TEST(CudaCheck, ErrorNamesCallDeviceAndCudaError) {
  SKIP_WITHOUT_GPU();
  try {
    PX_CUDA(0, cudaSetDevice(9999));
    FAIL() << "cudaSetDevice(9999) succeeded";
  } catch (const CudaError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cudaSetDevice(9999) failed on GPU 0 ("), std::string::npos) << what;
    EXPECT_NE(what.find("cudaErrorInvalidDevice"), std::string::npos) << what;
  }
}

TEST(CudaPlatform, CopiesKernelsAndTimersCompleteInRealTime) {
  SKIP_WITHOUT_GPU();
  CudaPlatform p;
  Recorder r;
  r.platform = &p;
  p.copy(Endpoint::host(0), Endpoint::gpu(0), Bytes(64 << 20), r, 1);
  p.copy(Endpoint::gpu(0), Endpoint::gpu(0), Bytes(64 << 20), r, 2);
  p.launch(0, kWholeGpu, KernelProfile{"k", 1e9, 1e8, 0}, r, 3);
  const Time t0 = p.now();
  p.call_at(t0 + Time::ms(20), r, 4);
  p.run();
  ASSERT_EQ(r.seen.size(), 4u);
  EXPECT_EQ(p.in_flight(), 0u);
  for (const auto& [tag, at] : r.seen)
    if (tag == 4) {
      EXPECT_GE(at, t0 + Time::ms(20));
      EXPECT_LT(at, t0 + Time::ms(25));  // the loop spins for the last 50 us
    }
}

TEST(CudaPlatform, OutOfMemoryNamesTheGpuAndBytes) {
  SKIP_WITHOUT_GPU();
  CudaPlatform p;
  const int64_t too_much = p.gpu(0).memory_bytes * 2;
  try {
    p.allocate(0, Bytes(too_much));
    FAIL() << "allocated twice the GPU's memory";
  } catch (const OutOfMemoryError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("GPU 0"), std::string::npos) << what;
    EXPECT_NE(what.find(std::to_string(too_much)), std::string::npos) << what;
  }
  const Platform::AllocationId a = p.allocate(0, Bytes(1 << 20));  // the GPU still works
  EXPECT_EQ(p.memory_used(0), Bytes(1 << 20));
  p.release(a);
  EXPECT_EQ(p.memory_used(0), Bytes(0));
}

TEST(CudaPlatform, PartitionsAreGreenContextsOfTheRoundedSize) {
  SKIP_WITHOUT_GPU();
  CudaPlatform p;
  const PartitionId a = p.create_partition(0, {30, 1.0, "a"});
  const PartitionId b = p.create_partition(0, {16, 0.5, "b"});  // bandwidth_share: recorded, not enforced
  EXPECT_EQ(p.partition_sms(a) % 2, 0);
  EXPECT_GE(p.partition_sms(a), 30);
  EXPECT_GE(p.partition_sms(b), 16);
  Recorder r;
  r.platform = &p;
  p.launch(0, a, KernelProfile{"ka", 5e9, 0, 0}, r, 1);
  p.launch(0, b, KernelProfile{"kb", 0, 1e9, 0}, r, 2);
  p.run();
  EXPECT_EQ(r.seen.size(), 2u);
  p.resize_partition(a, {64, 1.0, "a"});
  EXPECT_GE(p.partition_sms(a), 64);
  EXPECT_THROW(p.create_partition(0, {p.gpu(0).sms, 1.0, "too big"}), PartitionRuleError);
}

TEST(CudaPlatform, CollectiveNeedsTwoGpus) {
  SKIP_WITHOUT_GPU();
  CudaPlatform p;
  Recorder r;
  const GpuId one[] = {0};
  EXPECT_THROW(p.collective(CollectiveOp::all_reduce, one, Bytes(1 << 20), CollectiveAlgo::ring, r, 1), PlatformError);
  if (p.gpu_count() < 2) GTEST_SKIP() << "one GPU: NCCL collectives need two";
  r.platform = &p;
  const GpuId two[] = {0, 1};
  p.collective(CollectiveOp::all_reduce, two, Bytes(64 << 20), CollectiveAlgo::ring, r, 2);
  p.run();
  EXPECT_EQ(r.seen.size(), 1u);
}

TEST(CudaPlatform, AnswersPathsAndPartitioningFromWhatItProbes) {
  SKIP_WITHOUT_GPU();
  CudaPlatform p;
  // Host -> GPU 0 and back: GPU 0's PCIe link, one resource per direction, bandwidth not probed.
  const Path in = p.path(Endpoint::host(0), Endpoint::gpu(0));
  const Path out = p.path(Endpoint::gpu(0), Endpoint::host(0));
  ASSERT_EQ(in.links.size(), 1u);
  EXPECT_TRUE(in.only(LinkKind::pcie));
  EXPECT_EQ(in.links[0].bandwidth_Bps, 0.0);
  EXPECT_FALSE(in.shares_with(out));
  EXPECT_THROW(p.path(Endpoint::gpu(0), Endpoint::gpu(0)), PlatformError);
  EXPECT_THROW(p.path(Endpoint::gpu(0), Endpoint::gpu(p.gpu_count())), PlatformError);
  const ProbedDevice d = probe_device(0);
  if (d.green_min_sms > 0) {
    EXPECT_EQ(p.partitioning(0).green_min_sms, d.green_min_sms);
    EXPECT_EQ(p.partitioning(0).sms, d.sms);
  } else {
    EXPECT_THROW(p.partitioning(0), PlatformError);
  }
}

TEST(CudaPlatform, KernelDescribedByTimeNeedsTheKernelRate) {
  SKIP_WITHOUT_GPU();
  KernelProfile timed;
  timed.name = "layer";
  timed.solo_s = 1e-3;
  Recorder r;
  CudaPlatform without;
  r.platform = &without;
  EXPECT_THROW(without.launch(0, kWholeGpu, timed, r, 1), PlatformError);
  CudaPlatformOptions o;
  o.kernel_flops_per_s = 60e12;
  CudaPlatform with(o);
  r.platform = &with;
  const Time t0 = with.now();
  with.launch(0, kWholeGpu, timed, r, 2);
  with.run();
  ASSERT_EQ(r.seen.size(), 1u);
  EXPECT_GT(r.seen[0].second, t0);
}

}  // namespace
}  // namespace parallax::hw

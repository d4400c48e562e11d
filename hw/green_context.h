// File: hw/green_context.h
// SM partitions of one GPU as green contexts (driver API, REFERENCE.md §8.1): a chain of splits,
// each group cut from what the previous ones left, so the groups are disjoint (two splits of the
// whole device may overlap, §6.2). Each group has its own non-blocking stream; kernels launched
// on it (runtime <<<>>>, cuBLASLt) run only on the group's SMs. A group selects SMs; it reserves
// neither HBM bandwidth nor L2, so PartitionSpec::bandwidth_share cannot be enforced on hardware.
// Nothing here changes a device setting.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <vector>

#include "sim/platform/gpu_partitioning.h"

namespace parallax::hw {

struct GreenGroup {
  CUgreenCtx context = nullptr;
  cudaStream_t stream = nullptr;
  int sms = 0;  // as the driver reports the group
};

class GreenContexts {
 public:
  // Reads the device's SM resource (throws CudaError when the driver has no green contexts).
  explicit GreenContexts(int device);
  ~GreenContexts();
  GreenContexts(const GreenContexts&) = delete;
  GreenContexts& operator=(const GreenContexts&) = delete;

  // The granularity rules of this device, for hw/green_split.h.
  const GpuPartitioning& rules() const { return rules_; }

  // Destroys the current groups and cuts new ones of the requested sizes (rounded up by the
  // driver); with `remainder_group`, what is left becomes one more group at the end. Throws
  // PartitionRuleError when the sizes do not fit (checked before the driver is asked).
  const std::vector<GreenGroup>& split(const std::vector<int>& sms, bool remainder_group);
  // Cuts one more group from what the existing groups left.
  const GreenGroup& append(int sms);
  const std::vector<GreenGroup>& groups() const { return groups_; }
  int remaining_sms() const { return static_cast<int>(remaining_.sm.smCount); }
  void clear();

 private:
  void add_group(CUdevResource& resource);

  int device_;
  CUdevice cu_device_ = 0;
  CUdevResource whole_{};
  CUdevResource remaining_{};  // what the groups left
  GpuPartitioning rules_;
  std::vector<GreenGroup> groups_;
};

}  // namespace parallax::hw

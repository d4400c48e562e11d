// File: hw/green_context.cpp
#include "hw/green_context.h"

#include <fmt/format.h>

#include "hw/cuda_check.h"
#include "hw/driver_api.h"
#include "hw/green_split.h"

namespace parallax::hw {

GreenContexts::GreenContexts(int device) : device_(device) {
  const DriverApi& api = driver_api();
  if (!api.has_green_contexts())
    throw CudaError(fmt::format("GPU {}: the driver has no green-context API (needs CUDA 12.4+)", device), 0);
  PX_CUDA(device, cudaSetDevice(device));
  PX_CUDA(device, cudaFree(nullptr));  // the primary context must exist before green contexts
  PX_CU(device, api.cuDeviceGet(&cu_device_, device));
  PX_CU(device, api.cuDeviceGetDevResource(cu_device_, &whole_, CU_DEV_RESOURCE_TYPE_SM));
  remaining_ = whole_;
  rules_ = green_rules(device_name(device), static_cast<int>(whole_.sm.smCount),
                       static_cast<int>(whole_.sm.minSmPartitionSize), static_cast<int>(whole_.sm.smCoscheduledAlignment));
}

GreenContexts::~GreenContexts() {
  try {
    clear();
  } catch (...) {
    // Destructors do not throw; a failed destroy leaks a context until the process ends.
  }
}

void GreenContexts::clear() {
  const DriverApi& api = driver_api();
  for (GreenGroup& g : groups_) {
    if (g.stream) PX_CU(device_, api.cuStreamDestroy(reinterpret_cast<CUstream>(g.stream)));
    if (g.context) PX_CU(device_, api.cuGreenCtxDestroy(g.context));
  }
  groups_.clear();
  remaining_ = whole_;
}

// Appends the group before creating its stream, so that clear() releases a half-made group.
void GreenContexts::add_group(CUdevResource& resource) {
  const DriverApi& api = driver_api();
  CUdevResourceDesc desc = nullptr;
  PX_CU(device_, api.cuDevResourceGenerateDesc(&desc, &resource, 1));
  GreenGroup& g = groups_.emplace_back();
  g.sms = static_cast<int>(resource.sm.smCount);
  PX_CU(device_, api.cuGreenCtxCreate(&g.context, desc, cu_device_, CU_GREEN_CTX_DEFAULT_STREAM));
  CUstream s = nullptr;
  PX_CU(device_, api.cuGreenCtxStreamCreate(&s, g.context, CU_STREAM_NON_BLOCKING, 0));
  g.stream = reinterpret_cast<cudaStream_t>(s);
}

const GreenGroup& GreenContexts::append(int sms) {
  const int left = static_cast<int>(remaining_.sm.smCount);
  split_green_groups(green_rules(rules_.name, left, rules_.green_min_sms, rules_.green_multiple_sms), {sms});
  CUdevResource group{}, rest{};
  unsigned int n = 1;
  PX_CU(device_, driver_api().cuDevSmResourceSplitByCount(&group, &n, &remaining_, &rest, 0, static_cast<unsigned>(sms)));
  if (n != 1) throw CudaError(fmt::format("GPU {}: splitting {} SMs gave {} groups", device_, sms, n), 0);
  add_group(group);
  remaining_ = rest;
  return groups_.back();
}

const std::vector<GreenGroup>& GreenContexts::split(const std::vector<int>& sms, bool remainder_group) {
  split_green_groups(rules_, sms);  // PartitionRuleError before touching the driver
  clear();
  for (int s : sms) append(s);
  if (remainder_group && remaining_.sm.smCount > 0) {
    add_group(remaining_);
    remaining_ = CUdevResource{};
  }
  return groups_;
}

}  // namespace parallax::hw

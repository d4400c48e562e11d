// File: sim/policies/multiplex/service_kernels.h
// A multiplexed service's batches as tile-level kernels: for n = 1..max_batch, the eager-PyTorch
// operator sequence of the catalog model at batch n with its real shapes (models/network_shapes.h),
// in fp16, each operator the kernel a cuDNN/cuBLAS-like heuristic launches (models/op_kernels.h:
// grid, resident blocks per SM from the GPU's limits, FLOPs, DRAM bytes, tile efficiency).
// The heuristic picks each tile configuration for the whole GPU [assumption: a library sees the
// device's SM count; under MIG an instance is its own device and would be tuned for its SMs, which
// this does not model]. Timed on a share by models/kernel_time.h, launched by
// Platform::launch through kernel_profile (sim/platform/platform.h).
#pragma once

#include <string_view>
#include <vector>

#include "models/op_kernels.h"

namespace parallax {

// [0] is empty, [n] = one batch of n. Throws std::invalid_argument for a model network_shape
// does not know or max_batch < 1.
std::vector<std::vector<OpKernel>> service_kernels(std::string_view model, int max_batch, const DeviceRates& rates,
                                                   const GpuLimits& limits);

}  // namespace parallax

// File: sim/policies/colocate/colocation_kernels.h
// The kernels one inference request of a catalog model launches, as colocation runs them: the
// model's eager-PyTorch operators at this batch with their real shapes (models/network_shapes.h),
// each the kernel a cuDNN/cuBLAS-like library would launch for it (models/op_kernels.h: grid,
// resident blocks per SM from the GPU's limits, FLOPs, DRAM bytes, tile efficiency), in fp16
// [assumption: inference serving runs half precision; the catalog's `dtype: fp32` is the stored
// checkpoint, which sizes weights for the memory checks, not the kernels]. The library picks each
// tile for the whole GPU: it does not know which SMs a mask will leave the kernel.
#pragma once

#include <string_view>
#include <vector>

#include "models/op_kernels.h"
#include "sim/policies/colocate/colocation_policy.h"

namespace parallax {

// std::invalid_argument for a model network_shapes does not describe (network_names()).
std::vector<ColocationKernel> colocation_kernels(std::string_view model, int batch, const DeviceRates& rates,
                                                 const GpuLimits& limits);
// The model's state dict in fp16 (weights and batch-norm statistics), the tensors a colocated
// tenant keeps in HBM between requests [assumption: activations are freed and allocated again per
// request, so only these stay on a channel colour].
double colocation_resident_bytes(std::string_view model);

}  // namespace parallax

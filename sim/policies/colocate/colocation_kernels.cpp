// File: sim/policies/colocate/colocation_kernels.cpp
#include "sim/policies/colocate/colocation_kernels.h"

namespace parallax {

std::vector<ColocationKernel> colocation_kernels(std::string_view model, int batch, const DeviceRates& rates,
                                                 const GpuLimits& limits) {
  // fp16's rate factor is 1: the node times these kernels with the platform's rates unscaled.
  const DataType fp16 = data_type("fp16");
  std::vector<ColocationKernel> out;
  for (OpKernel& k : op_kernels(network_shape(model, batch), fp16, rates, limits, rates.sms))
    out.push_back({std::move(k.name), k.shape});
  return out;
}

double colocation_resident_bytes(std::string_view model) {
  return network_shape(model, 1).state_elements() * data_type("fp16").bytes;
}

}  // namespace parallax

// File: sim/policies/multiplex/service_kernels.cpp
#include "sim/policies/multiplex/service_kernels.h"

#include <stdexcept>

namespace parallax {

std::vector<std::vector<OpKernel>> service_kernels(std::string_view model, int max_batch, const DeviceRates& rates,
                                                   const GpuLimits& limits) {
  if (max_batch < 1) throw std::invalid_argument("service_kernels: max_batch must be >= 1");
  // fp16 runs at the preset's tensor peak (rate factor 1), so the rates a kernel is timed with are
  // the GPU's own.
  const DataType fp16 = data_type("fp16");
  std::vector<std::vector<OpKernel>> out(static_cast<size_t>(max_batch) + 1);
  for (int n = 1; n <= max_batch; ++n)
    out[static_cast<size_t>(n)] = op_kernels(network_shape(model, n), fp16, rates, limits, rates.sms);
  return out;
}

}  // namespace parallax

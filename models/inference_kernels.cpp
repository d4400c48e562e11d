// File: models/inference_kernels.cpp
#include "models/inference_kernels.h"

#include <cmath>
#include <stdexcept>

namespace parallax {

std::vector<NamedKernel> inference_kernels(const std::string& model, const std::vector<LayerFigures>& layers,
                                           int batch, const InferenceKernelAssumptions& a) {
  if (batch < 1) throw std::invalid_argument("inference_kernels: batch must be >= 1");
  std::vector<NamedKernel> out;
  out.reserve(layers.size());
  for (const LayerFigures& l : layers) {
    NamedKernel k;
    k.name = model + "/" + l.name;
    k.shape.flops = batch * l.flops;
    k.shape.dram_bytes = l.param_bytes + batch * l.flops / a.activation_flop_per_byte;
    k.shape.grid_blocks = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(k.shape.flops / a.block_flops)));
    if (a.block_bytes > 0)
      k.shape.grid_blocks =
          std::max(k.shape.grid_blocks, static_cast<int64_t>(std::ceil(k.shape.dram_bytes / a.block_bytes)));
    k.shape.blocks_per_sm = a.blocks_per_sm;
    out.push_back(std::move(k));
  }
  return out;
}

}  // namespace parallax

// File: hw/calibrate_swap.cpp
// The Calibrator's swap family: Torpor's pipelined model loading over PCIe. (The overlap
// families, interdecom and intrafusion, run the policy's task graphs on a CudaPlatform:
// calibrate_realtime.cpp.)
#include <algorithm>

#include "hw/calibrator.h"
#include "hw/cuda_check.h"
#include "hw/intensity_shape.h"
#include "hw/kernels.h"
#include "sim/scenario/model_catalog_reader.h"

namespace parallax::hw {

// First-request latency of a catalog model whose weights sit in pinned host memory: the weights
// cross PCIe in groups of group_bytes (0 = the whole model first), and each layer group's kernel
// (the intensity kernel with the layer's FLOPs and weight bytes) starts as soon as the copy group
// holding its last weight byte has landed. Timed from the first copy to the last layer.
CaseResult Calibrator::swap_case(const PlanCase& c) {
  const CatalogModel& model = embedded_model_catalog().at(c.get("model"));
  const auto total = static_cast<size_t>(c.get_int("model_bytes"));
  const auto group = static_cast<size_t>(c.get_int("group_bytes"));
  char* host = static_cast<char*>(pinned_buffer(total));
  char* weights = static_cast<char*>(device_buffer("swap_weights", total));
  void* scratch = device_buffer("swap_kernel", kIntensityBufferBytes);
  std::vector<size_t> layer_end;  // byte offset after each layer's weights
  size_t at = 0;
  for (const CatalogLayer& l : model.layers) layer_end.push_back(at += static_cast<size_t>(l.param_bytes));
  std::vector<IntensityShape> kernels;
  for (const CatalogLayer& l : model.layers)
    kernels.push_back(intensity_shape(l.flops, static_cast<double>(l.param_bytes), sms_ * kBlocksPerSm, kThreadsPerBlock,
                                      kIntensityBufferBytes));
  const size_t step = group == 0 ? total : group;
  const auto samples = time_events(c, [&] {
    // stream_ copies; side_ computes. Each layer waits for the group holding its last byte.
    fork(stream_, side_);
    size_t copied = 0, layer = 0;
    while (copied < total) {
      const size_t n = std::min(step, total - copied);
      PX_CUDA(device_, cudaMemcpyAsync(weights + copied, host + copied, n, cudaMemcpyHostToDevice, stream_));
      copied += n;
      // Every layer whose weights are now complete may start.
      if (layer < layer_end.size() && layer_end[layer] <= copied) {
        fork(stream_, side_);
        while (layer < layer_end.size() && layer_end[layer] <= copied) launch_intensity(kernels[layer++], scratch, false, side_);
      }
    }
    join(stream_, side_);
  });
  return {rep_stats(samples), c.reps, {}, {}};
}

}  // namespace parallax::hw

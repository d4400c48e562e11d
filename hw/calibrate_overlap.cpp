// File: hw/calibrate_overlap.cpp
// The Calibrator's overlap families: swap (Torpor's pipelined model loading), interdecom
// (Compass-style chunked GEMM + collective, the collective played by a copy kernel on k SMs) and
// intrafusion (SM stealing: the copy on green-context SMs taken from the GEMM).
#include <algorithm>

#include <fmt/format.h>

#include "hw/calibrator.h"
#include "hw/cuda_check.h"
#include "hw/intensity_shape.h"
#include "hw/kernels.h"
#include "sim/scenario/model_catalog_reader.h"

namespace parallax::hw {

namespace {
constexpr int kOneBlockThreads = 1024;
}  // namespace

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

// GEMM C = A·B cut into d chunks along n; chunk i's output goes out through a copy kernel of
// copy_sms one-block-per-SM blocks (the collective's stand-in) while chunk i+1 computes.
CaseResult Calibrator::interdecom_case(const PlanCase& c) {
  const GemmDtype dtype = parse_gemm_dtype(c.get("dtype"));
  const int64_t m = c.get_int("m"), n = c.get_int("n"), k = c.get_int("k"), d = c.get_int("d");
  const int copy_sms = static_cast<int>(c.get_int("copy_sms"));
  const auto copy_bytes = static_cast<size_t>(c.get_int("copy_bytes"));
  if (n % d != 0) throw PlatformError(fmt::format("{}: n={} is not a multiple of d={}", c.id, n, d));
  const GemmOperands o = gemm_operands(dtype, m, n, k);
  const auto out_bytes = static_cast<size_t>(m * n * 2);
  char* dst = static_cast<char*>(device_buffer("interdecom_dst", std::max(copy_bytes, out_bytes)));
  prepare_one_block_per_sm(device_);
  const int64_t nc = n / d;
  const size_t chunk_copy = copy_bytes / static_cast<size_t>(d);
  const auto samples = time_events(c, [&] {
    for (int64_t i = 0; i < d; ++i) {
      const auto* b = static_cast<const char*>(o.b) + i * nc * k * 2;
      char* out = static_cast<char*>(o.c) + i * nc * m * 2;
      gemm().run(dtype, m, nc, k, o.a, b, out, stream_);
      fork(stream_, side_);
      if (copy_sms > 0)
        launch_copy(static_cast<char*>(o.c) + (i * chunk_copy) % out_bytes, dst + i * chunk_copy, chunk_copy, copy_sms,
                    kOneBlockThreads, true, side_);
    }
    join(stream_, side_);
  });
  return {rep_stats(samples), c.reps, {}, {}};
}

// The GEMM on the SMs left after `stolen_sms` are taken by a green context that runs the copy
// kernel (one block per SM) at the same time; stolen_sms = 0: GEMM then copy on the whole GPU.
CaseResult Calibrator::intrafusion_case(const PlanCase& c) {
  const GemmDtype dtype = parse_gemm_dtype(c.get("dtype"));
  const int64_t m = c.get_int("m"), n = c.get_int("n"), k = c.get_int("k");
  const int stolen = static_cast<int>(c.get_int("stolen_sms"));
  const auto copy_bytes = static_cast<size_t>(c.get_int("copy_bytes"));
  const GemmOperands o = gemm_operands(dtype, m, n, k);
  char* src = static_cast<char*>(device_buffer("intrafusion_src", copy_bytes));
  char* dst = static_cast<char*>(device_buffer("intrafusion_dst", copy_bytes));
  CaseResult r;
  std::vector<double> samples;
  if (stolen == 0) {
    samples = time_events(c, [&] {
      gemm().run(dtype, m, n, k, o.a, o.b, o.c, stream_);
      launch_copy(src, dst, copy_bytes, sms_ * kBlocksPerSm, kThreadsPerBlock, false, stream_);
    });
  } else {
    prepare_one_block_per_sm(device_);
    const std::vector<GreenGroup>& groups = green().split({stolen}, true);
    if (groups.size() != 2) throw PlatformError(fmt::format("{}: no SMs left for the GEMM", c.id));
    const GreenGroup copy_group = groups[0], gemm_group = groups[1];
    r.actual.push_back({"stolen_sms", std::to_string(copy_group.sms)});
    samples = time_events(c, [&] {
      fork(stream_, copy_group.stream);
      fork(stream_, gemm_group.stream);
      launch_copy(src, dst, copy_bytes, copy_group.sms, kOneBlockThreads, true, copy_group.stream);
      gemm().run(dtype, m, n, k, o.a, o.b, o.c, gemm_group.stream, gemm_group.sms);
      join(stream_, copy_group.stream);
      join(stream_, gemm_group.stream);
    });
    green().clear();
  }
  r.stats = rep_stats(samples);
  r.reps = c.reps;
  return r;
}

}  // namespace parallax::hw

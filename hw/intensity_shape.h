// File: hw/intensity_shape.h
// How the tunable-intensity kernel (hw/kernels.cu) realises a KernelProfile: it streams a buffer
// of `vectors` float4 elements `passes` times (each pass reads and writes every element: 32 bytes
// of DRAM traffic per element when the buffer exceeds L2), doing `fma_per_element` float4 FMAs
// (8 FLOP each) per element and pass. A compute-only profile (no DRAM bytes) gives every thread
// one element that stays in registers/L2. CUDA-free so the arithmetic is tested in CI.
//
//   IntensityShape s = intensity_shape(1.34e12, 0, 1056, 256, 1 << 30);  // compute-bound
//   s.flops();   // within one element-pass of 1.34e12
#pragma once

#include <cstdint>

namespace parallax::hw {

struct IntensityShape {
  int64_t vectors = 0;          // float4 elements in the buffer (16 bytes each)
  int64_t passes = 0;
  int64_t fma_per_element = 0;  // float4 FMAs per element and pass
  int blocks = 0;
  int threads = 0;
  double flops() const { return 8.0 * static_cast<double>(vectors) * passes * fma_per_element; }
  // DRAM traffic when the buffer does not fit in L2 (a compute-only shape reports 0).
  double dram_bytes(bool streams) const { return streams ? 32.0 * static_cast<double>(vectors) * passes : 0.0; }
};

inline constexpr int64_t kFloat4Bytes = 16;

// `max_buffer_bytes` bounds the buffer (DRAM bytes beyond it become more passes). Throws
// std::invalid_argument for negative amounts or a grid of no threads.
IntensityShape intensity_shape(double flops, double dram_bytes, int blocks, int threads, int64_t max_buffer_bytes);

}  // namespace parallax::hw

// File: hw/intensity_shape.cpp
#include "hw/intensity_shape.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace parallax::hw {

IntensityShape intensity_shape(double flops, double dram_bytes, int blocks, int threads, int64_t max_buffer_bytes) {
  if (flops < 0 || dram_bytes < 0 || blocks < 1 || threads < 1 || max_buffer_bytes < kFloat4Bytes)
    throw std::invalid_argument(fmt::format("intensity kernel: flops {} dram_bytes {} blocks {} threads {} buffer {}",
                                            flops, dram_bytes, blocks, threads, max_buffer_bytes));
  IntensityShape s;
  s.blocks = blocks;
  s.threads = threads;
  if (dram_bytes <= 0) {
    s.vectors = static_cast<int64_t>(blocks) * threads;
    s.passes = 1;
  } else {
    const int64_t per_pass = std::max<int64_t>(1, max_buffer_bytes / kFloat4Bytes);
    const double element_passes = dram_bytes / (2.0 * kFloat4Bytes);  // read + write per element
    s.passes = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(element_passes / static_cast<double>(per_pass))));
    s.vectors = std::max<int64_t>(1, std::llround(element_passes / static_cast<double>(s.passes)));
  }
  s.fma_per_element = std::llround(flops / (8.0 * static_cast<double>(s.vectors) * static_cast<double>(s.passes)));
  return s;
}

}  // namespace parallax::hw

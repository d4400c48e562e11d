// File: hw/intensity_shape_test.cpp
#include "hw/intensity_shape.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace parallax::hw {
namespace {

TEST(IntensityShape, ComputeOnlyKeepsOneElementPerThread) {
  const IntensityShape s = intensity_shape(1.34e12, 0, 1056, 256, 1 << 30);
  EXPECT_EQ(s.vectors, 1056 * 256);
  EXPECT_EQ(s.passes, 1);
  EXPECT_NEAR(s.flops(), 1.34e12, 8.0 * s.vectors);  // within one FMA per element
  EXPECT_EQ(s.dram_bytes(false), 0);
}

TEST(IntensityShape, MemoryBoundBeyondTheBufferBecomesPasses) {
  const double bytes = 96.0 * (1 << 30);
  const IntensityShape s = intensity_shape(0, bytes, 1056, 256, int64_t{1} << 30);
  EXPECT_LE(s.vectors * kFloat4Bytes, int64_t{1} << 30);
  EXPECT_EQ(s.passes, 48);  // 2 GiB of traffic per pass of a 1 GiB buffer
  EXPECT_NEAR(s.dram_bytes(true), bytes, 1e-9 * bytes);
  EXPECT_EQ(s.fma_per_element, 0);
}

TEST(IntensityShape, MixedIntensity) {
  const IntensityShape s = intensity_shape(8e9, 3.2e9, 132, 256, int64_t{1} << 30);
  EXPECT_NEAR(s.dram_bytes(true), 3.2e9, 64);
  EXPECT_NEAR(s.flops(), 8e9, 8.0 * s.vectors * s.passes);
}

TEST(IntensityShape, RejectsNonsense) {
  EXPECT_THROW(intensity_shape(-1, 0, 1, 1, 1 << 20), std::invalid_argument);
  EXPECT_THROW(intensity_shape(1, 0, 0, 256, 1 << 20), std::invalid_argument);
}

}  // namespace
}  // namespace parallax::hw

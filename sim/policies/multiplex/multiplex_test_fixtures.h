// File: sim/policies/multiplex/multiplex_test_fixtures.h
// Shared test inputs: the H200's MIG profiles and synthetic services whose batch of n is two
// kernels that scale with n (the machine: sim/platform/test_machines.h).
#pragma once

#include <string>
#include <vector>

#include "sim/platform/hardware_spec.h"
#include "sim/policies/multiplex/multiplex_policy.h"

namespace parallax::multiplex_test {

inline GpuPartitioning h200_parts() {
  GpuPartitioning g;
  g.name = "H200-141GB";
  g.sms = 132;
  g.green_min_sms = 8;
  g.green_multiple_sms = 8;
  g.channel_colours = 8;
  g.profiles = {{"1g.18gb", 1, 1, 16, 16.5, 7, {0, 1, 2, 3, 4, 5, 6}},
                {"2g.35gb", 2, 2, 32, 32.5, 3, {0, 2, 4}},
                {"3g.71gb", 3, 4, 60, 65.8, 2, {0, 4}},
                {"4g.71gb", 4, 4, 64, 65.8, 1, {0}},
                {"7g.141gb", 7, 8, 132, 131.0, 1, {0}}};
  return g;
}

inline MultiplexGpu gpu_of(const GpuPartitioning& parts) {
  return {0, DeviceRates{132, 989e12, 4.8e12, 0, 0.75, 5e-6}, &parts};
}

// A batch of n: a compute-bound kernel (n · 20 GFLOP, 10·n blocks) then a memory-bound one.
inline ServiceModel service(const std::string& name, double rate_per_s, int max_batch, double slo_ms,
                            double scale = 1.0) {
  ServiceModel s;
  s.name = name;
  s.rate_per_s = rate_per_s;
  s.batcher = {max_batch, Time::us(500), Time::seconds(slo_ms * 1e-3)};
  s.kernels_by_batch.resize(static_cast<size_t>(max_batch) + 1);
  for (int n = 1; n <= max_batch; ++n) {
    s.kernels_by_batch[static_cast<size_t>(n)] = {
        {"gemm", {scale * n * 20e9, scale * 50e6, 10 * n, 1}},
        {"norm", {scale * n * 1e6, scale * n * 40e6, 4 * n, 1}}};
  }
  return s;
}

}  // namespace parallax::multiplex_test

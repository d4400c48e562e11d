// File: sim/policies/multiplex/multiplex_test_fixtures.h
// Shared test inputs: synthetic services whose batch of n is two kernels that scale with n (the
// machine and its MIG profiles: sim/platform/test_machines.h).
#pragma once

#include <string>
#include <vector>

#include "sim/platform/hardware_spec.h"
#include "sim/policies/multiplex/multiplex_policy.h"

namespace parallax::multiplex_test {

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
        {"gemm", OpKind::gemm, {scale * n * 20e9, scale * 50e6, 10 * n, 1}, {}},
        {"norm", OpKind::norm, {scale * n * 1e6, scale * n * 40e6, 4 * n, 1}, {}}};
  }
  return s;
}

}  // namespace parallax::multiplex_test

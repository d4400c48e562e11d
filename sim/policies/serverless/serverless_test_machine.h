// File: sim/policies/serverless/serverless_test_machine.h
// A small machine for the serverless tests: `gpus` GPUs of 100 TFLOP/s and 1 GB each, every GPU
// on one PCIe link of 10 GB/s to its switch (GPU pairs share a switch, the switch uplink 10 GB/s),
// and NVLink of 50 GB/s between GPU 0 and every other GPU. Latencies are zero so closed forms are
// exact.
#pragma once

#include <string>

#include "sim/platform/hardware_spec.h"
#include "sim/policies/serverless/served_model.h"

namespace parallax::serverless_test {

inline HardwareSpec machine(int gpus) {
  HardwareSpec h;
  h.name = "serverless-test";
  for (int g = 0; g < gpus; ++g) {
    GpuSpec s;
    s.model = "TEST";
    s.sms = 10;
    s.peak_flops = 100e12;
    s.hbm_Bps = 1e12;
    s.memory_bytes = 1'000'000'000;
    h.gpus.push_back(s);
  }
  h.hosts.push_back({int64_t{1} << 36});
  for (int sw = 0; sw < (gpus + 1) / 2; ++sw) {
    h.switches.push_back({"sw" + std::to_string(sw), NodeKind::pcie_switch});
    h.links.push_back({"sw" + std::to_string(sw), "host0", LinkKind::pcie, 10e9, 0, true});
  }
  for (int g = 0; g < gpus; ++g) {
    h.links.push_back({gpu_node_name(g), "sw" + std::to_string(g / 2), LinkKind::pcie, 10e9, 0, true});
    if (g > 0) h.links.push_back({gpu_node_name(0), gpu_node_name(g), LinkKind::nvlink, 50e9, 0, true});
  }
  return h;
}

// 3 layers: 3 MiB / 1 ms, 0 B / 0.5 ms, 5 MiB / 2 ms (8 MiB = 4 groups of 2 MiB).
inline ServedModel model(std::string name, ModelClass cls, double slo_s = 0.1) {
  ServedModel m;
  m.name = std::move(name);
  m.heaviness = cls;
  m.layers = {{3 << 20, 1e-3}, {0, 0.5e-3}, {5 << 20, 2e-3}};
  m.param_bytes = 8 << 20;
  m.compute_s = 3.5e-3;
  m.native_s = 4e-3;
  m.native_footprint_bytes = 300'000'000;
  m.slo = Time::seconds(slo_s);
  return m;
}

}  // namespace parallax::serverless_test

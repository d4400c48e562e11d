// File: sim/platform/anchor_topologies.cpp
#include "sim/platform/anchor_topologies.h"

#include <string>

namespace parallax {

namespace {
GpuSpec bench_gpu() {
  GpuSpec g;
  g.model = "bench-gpu";
  g.sms = 1;
  g.peak_flops = 1e15;
  g.hbm_Bps = 1e13;
  g.memory_bytes = int64_t{1} << 40;
  return g;
}
}  // namespace

HardwareSpec anchor_crossbar(int gpus, double link_Bps, double latency_s) {
  HardwareSpec s;
  s.name = "anchor-crossbar";
  s.gpus.assign(gpus, bench_gpu());
  s.switches.push_back({"nvswitch", NodeKind::nvswitch});
  for (int i = 0; i < gpus; ++i)
    s.links.push_back({gpu_node_name(i), "nvswitch", LinkKind::nvlink, link_Bps, latency_s, true});
  return s;
}

HardwareSpec anchor_hybrid(int gpus, bool shared_uplink) {
  HardwareSpec s;
  s.name = "anchor-hybrid";
  s.gpus.assign(gpus, bench_gpu());
  s.switches.push_back({"pcie_sw0", NodeKind::pcie_switch});
  s.switches.push_back({"pcie_sw1", NodeKind::pcie_switch});
  for (int i = 0; i < gpus; i += 2)
    s.links.push_back({gpu_node_name(i), gpu_node_name(i + 1), LinkKind::nvlink, 56e9, 1e-6, true});
  for (int i = 0; i < gpus; ++i)
    s.links.push_back({gpu_node_name(i), i < gpus / 2 ? "pcie_sw0" : "pcie_sw1", LinkKind::pcie, 25e9, 1e-6, true});
  s.links.push_back({"pcie_sw0", "pcie_sw1", LinkKind::pcie, 25e9, 1e-6, !shared_uplink});
  return s;
}

HardwareSpec anchor_leaf_spine() {
  HardwareSpec s;
  s.name = "anchor-leaf-spine";
  s.gpus.assign(64, bench_gpu());
  s.switches.push_back({"spine", NodeKind::network_switch});
  for (int l = 0; l < 8; ++l) {
    const std::string leaf = "leaf" + std::to_string(l);
    s.switches.push_back({leaf, NodeKind::network_switch});
    s.links.push_back({leaf, "spine", LinkKind::network, 50e9, 1e-6, true});
  }
  for (int i = 0; i < 64; ++i)
    s.links.push_back({gpu_node_name(i), "leaf" + std::to_string(i / 8), LinkKind::network, 12.5e9, 1e-6, true});
  return s;
}

}  // namespace parallax

// File: sim/platform/test_machines.h
// Machines shared by the tests (not by the library): one H200 beside a host, as the colocate,
// multiplex and property tests run their policies on SimPlatform.
#pragma once

#include "sim/platform/hardware_spec.h"

namespace parallax::test_machines {

// One H200-SXM (132 SMs, 989 TFLOP/s, 4.8 TB/s HBM, 141 GB) and a host over a 64 GB/s PCIe link
// (1 µs, full duplex); `kernel_launch_s` is the GPU's fixed delay before a kernel starts.
inline HardwareSpec one_h200(double kernel_launch_s = 0) {
  HardwareSpec hw;
  hw.name = "test-h200";
  GpuSpec g;
  g.model = "H200-SXM";
  g.sms = 132;
  g.peak_flops = 989e12;
  g.hbm_Bps = 4.8e12;
  g.memory_bytes = 141'000'000'000;
  g.kernel_launch_s = kernel_launch_s;
  hw.gpus.push_back(g);
  hw.hosts.push_back({});
  hw.links.push_back({"gpu0", "host0", LinkKind::pcie, 64e9, 1e-6, true});
  return hw;
}

}  // namespace parallax::test_machines

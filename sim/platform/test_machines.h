// File: sim/platform/test_machines.h
// Machines shared by the tests (not by the library): one H200 beside a host and the H200's
// partitioning rules, as the colocate, multiplex, partition and property tests use them.
#pragma once

#include "sim/platform/gpu_partitioning.h"
#include "sim/platform/hardware_spec.h"

namespace parallax::test_machines {

// One H200-SXM (132 SMs, 989 TFLOP/s, 4.8 TB/s HBM, 141 GB) and a host over a 64 GB/s PCIe link
// (1 µs, full duplex); `kernel_launch_s` is the GPU's fixed delay before a kernel starts and
// `bw_per_sm_Bps` the DRAM bandwidth one SM can draw (0 = no per-SM cap).
inline HardwareSpec one_h200(double kernel_launch_s = 0, double bw_per_sm_Bps = 0) {
  HardwareSpec hw;
  hw.name = "test-h200";
  GpuSpec g;
  g.model = "H200-SXM";
  g.sms = 132;
  g.peak_flops = 989e12;
  g.hbm_Bps = 4.8e12;
  g.memory_bytes = 141'000'000'000;
  g.kernel_launch_s = kernel_launch_s;
  g.bw_per_sm_Bps = bw_per_sm_Bps;
  hw.gpus.push_back(g);
  hw.hosts.push_back({});
  hw.links.push_back({"gpu0", "host0", LinkKind::pcie, 64e9, 1e-6, true});
  return hw;
}

// The H200's green-context granularity (8 SMs), 8 memory channels and its five MIG profiles, as
// scenarios/partitioning/gpu-partitioning.yaml gives them (REFERENCE.md §1.4).
inline GpuPartitioning h200_partitioning() {
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
                {"7g.141gb", 7, 8, 132, 131.2, 1, {0}}};
  return g;
}

}  // namespace parallax::test_machines

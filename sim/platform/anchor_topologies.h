// File: sim/platform/anchor_topologies.h
// The machines of the SimGrid anchor benchmarks (../shared/anchors/simgrid/README.md), built in
// code for the platform's own tests and `parallax bench`. Users describe the same machines in
// YAML: scenarios/bench/*.yaml.
#pragma once

#include "sim/platform/hardware_spec.h"

namespace parallax {

// P GPUs, each joined to one non-blocking switch by a full-duplex link (bw per direction).
HardwareSpec anchor_crossbar(int gpus, double link_Bps, double link_latency_s);
// P GPUs (a multiple of 4): NVLink pairs (2k, 2k+1) at 56 GB/s, PCIe 25 GB/s to switch A (first
// half) or B, A and B joined by a 25 GB/s uplink (full duplex, or one shared capacity); 1 us per link.
HardwareSpec anchor_hybrid(int gpus, bool shared_uplink);
// 64 endpoints on 8 leaves: 12.5 GB/s host links, one 50 GB/s uplink per leaf to a spine, 1 us per link.
HardwareSpec anchor_leaf_spine();

}  // namespace parallax

// File: sim/scenario/fabric_reader.h
// Reads `hardware.fabric` (the NICs and the leaf/spine network that join copies of the box) and
// `hardware.nodes` (how many copies), checked against the box already read: the NICs' PCIe
// switches must exist. docs/scenarios.md "Clusters" explains the keys.
#pragma once

#include <string>

#include "sim/platform/hardware_spec.h"
#include "sim/scenario/config_tree.h"

namespace parallax {

// Most nodes a cluster may have (nodes x GPUs per box is also bounded by kMaxGpus).
inline constexpr int kMaxNodes = 16384;

// `box` holds the GPUs, switches and links; the result's `nodes` is 1 (read_cluster_nodes sets it).
FabricSpec read_fabric(const ConfigNode& node, const std::string& path, const HardwareSpec& box);

// `hardware.nodes`: 1 .. kMaxNodes; more than 1 needs NICs in the fabric.
int read_cluster_nodes(const ConfigNode& node, const std::string& path, const HardwareSpec& box);

}  // namespace parallax

// File: sim/scenario/topology_shapes.h
// Topology generators: a `topology:` mapping names a shape and its parameters, and expands to
// switches and links appended to a HardwareSpec whose GPUs and hosts are already filled.
//   crossbar      every GPU to one switch (NVSwitch); optional host links, direct or via PCIe switches
//   nvlink_pairs  NVLink bridges 2k<->2k+1; PCIe to the host directly or through PCIe switches
//   leaf_spine    GPUs on leaf switches, leaves on one spine, host0 on the spine
//   none          nothing: only the explicit switches and links
// docs/scenarios.md gives every parameter with its default.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "sim/platform/hardware_spec.h"
#include "sim/scenario/config_tree.h"

namespace parallax {

// `topology` is the mapping holding `shape`; `path` its dotted key ("hardware.topology").
void expand_topology(const ConfigNode& topology, const std::string& path, HardwareSpec& spec);

std::span<const std::string_view> topology_shape_names();

}  // namespace parallax

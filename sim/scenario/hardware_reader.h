// File: sim/scenario/hardware_reader.h
// Validates a hardware mapping (a preset, possibly merged with a scenario's overrides) and turns
// it into a HardwareSpec: GPUs, hosts, the topology shape's switches and links, then the explicit
// switches and links, then the fabric and node count (fabric_reader.h). Checks that every link
// endpoint exists and that no GPU or host is cut off.
#pragma once

#include <string>

#include "sim/platform/hardware_spec.h"
#include "sim/scenario/config_tree.h"

namespace parallax {

// Most GPUs and hosts one machine may have (a guard against "gpus: 1e9" typos).
inline constexpr int kMaxGpus = 65536;
inline constexpr int kMaxHosts = 4096;

// `path` is the dotted key of the mapping: "hardware" inside a scenario, "" for a preset file.
// The mapping must not hold `preset` any more (the scenario loader resolves it first).
HardwareSpec read_hardware(const ConfigNode& hardware, const std::string& path);

}  // namespace parallax

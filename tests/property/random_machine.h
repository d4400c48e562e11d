// File: tests/property/random_machine.h
// Random machines for property tests, each drawn from one RandomStream: a crossbar, NVLink pairs
// behind two PCIe switches (the hybrid anchor), a leaf-spine fabric, and a random connected graph
// of switches with GPUs, NVLink bridges, one host and half-duplex links mixed in. Every machine
// is valid for SimPlatform (all GPUs and hosts reachable); figures are drawn over wide ranges so
// that links of very different speeds meet on one route.
#pragma once

#include <string>

#include "sim/engine/random_streams.h"
#include "sim/platform/hardware_spec.h"

namespace parallax::property {

enum class MachineShape { crossbar, pairs_and_switches, leaf_spine, random_graph };
inline constexpr MachineShape kMachineShapes[] = {MachineShape::crossbar, MachineShape::pairs_and_switches,
                                                  MachineShape::leaf_spine, MachineShape::random_graph};
std::string to_string(MachineShape shape);

HardwareSpec random_machine(MachineShape shape, RandomStream& rng);

}  // namespace parallax::property

// File: sim/policies/serverless/node_links.h
// What the serverless policies need to know about one node's links (served_model.h NodeLinks),
// read off a SimPlatform's topology: NVLink rates between GPU pairs, each GPU's PCIe-switch
// sibling, and every load route as the platform runs a lone copy on it. For whoever builds a
// simulation (sim/experiment/serverless_experiment.cpp, tests); the policies themselves see only NodeLinks.
#pragma once

#include "sim/platform/sim_platform.h"
#include "sim/policies/serverless/served_model.h"

namespace parallax {

NodeLinks node_links(SimPlatform& platform);

}  // namespace parallax

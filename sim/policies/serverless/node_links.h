// File: sim/policies/serverless/node_links.h
// What the serverless policies need to know about one node's links (served_model.h NodeLinks),
// asked of the Platform's paths: NVLink rates between GPU pairs, each GPU's PCIe-switch sibling,
// and every load route as the platform runs a lone copy on it. Works on any Platform that can
// tell its paths (SimPlatform from its topology, CudaPlatform from what it probes).
#pragma once

#include "sim/platform/platform.h"
#include "sim/policies/serverless/served_model.h"

namespace parallax {

// Throws PlatformError when the platform cannot tell a path the node needs.
NodeLinks node_links(Platform& platform);

}  // namespace parallax

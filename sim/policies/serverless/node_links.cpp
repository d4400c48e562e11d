// File: sim/policies/serverless/node_links.cpp
#include "sim/policies/serverless/node_links.h"

#include <algorithm>

namespace parallax {

namespace {

// The path's link resources, copy engines aside: what two GPUs' host paths can have in common.
bool links_meet(const Path& a, const Path& b) {
  for (const PathLink& x : a.links)
    for (const PathLink& y : b.links)
      if (!x.copy_engine && !y.copy_engine && x.resource == y.resource) return true;
  return false;
}

}  // namespace

// NVLink line rate between GPU pairs joined by NVLink only, and the PCIe-switch sibling: the GPU
// whose path from the host shares a link with this GPU's.
NodeLinks node_links(Platform& platform) {
  const int gpus = platform.gpu_count();
  NodeLinks l;
  l.peer_Bps.assign(static_cast<size_t>(gpus), std::vector<double>(static_cast<size_t>(gpus), 0.0));
  l.pcie_sibling.assign(static_cast<size_t>(gpus), -1);
  // [source][gpu]: source < gpus a peer GPU, source == gpus the host.
  l.routes.assign(static_cast<size_t>(gpus) + 1, std::vector<RouteCost>(static_cast<size_t>(gpus)));
  std::vector<Path> from_host;
  for (int a = 0; a < gpus; ++a) from_host.push_back(platform.path(Endpoint::host(l.host), Endpoint::gpu(a)));
  for (int src = 0; src <= gpus; ++src)
    for (int dst = 0; dst < gpus; ++dst) {
      if (src == dst) continue;
      const Path p = src == gpus ? from_host[static_cast<size_t>(dst)] : platform.path(Endpoint::gpu(src), Endpoint::gpu(dst));
      if (src < gpus) {
        double line = 1e300;
        for (const PathLink& k : p.links)
          if (!k.copy_engine) line = std::min(line, k.bandwidth_Bps);
        l.peer_Bps[static_cast<size_t>(src)][static_cast<size_t>(dst)] = p.only(LinkKind::nvlink) ? line : 0;
      }
      // The route as the platform runs a lone copy on it: every resource it crosses, the
      // smallest of their rates, and the path latency.
      RouteCost c;
      c.Bps = p.bottleneck_Bps();
      c.latency = p.latency;
      for (const PathLink& k : p.links) c.directions.push_back(k.resource);
      std::sort(c.directions.begin(), c.directions.end());
      l.routes[static_cast<size_t>(src)][static_cast<size_t>(dst)] = std::move(c);
    }
  for (int a = 0; a < gpus; ++a)
    for (int b = 0; b < gpus && l.pcie_sibling[static_cast<size_t>(a)] < 0; ++b)
      if (a != b && links_meet(from_host[static_cast<size_t>(a)], from_host[static_cast<size_t>(b)]))
        l.pcie_sibling[static_cast<size_t>(a)] = b;
  return l;
}

}  // namespace parallax

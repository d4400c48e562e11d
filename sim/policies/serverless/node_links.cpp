// File: sim/policies/serverless/node_links.cpp
#include "sim/policies/serverless/node_links.h"

#include <algorithm>
#include <set>

namespace parallax {

// NVLink line rate between GPU pairs joined by NVLink only, and the PCIe-switch sibling: the GPU
// whose route from the host shares a link direction with this GPU's.
NodeLinks node_links(SimPlatform& platform) {
  Topology& topo = platform.topology();
  const int gpus = platform.gpu_count();
  NodeLinks l;
  l.peer_Bps.assign(static_cast<size_t>(gpus), std::vector<double>(static_cast<size_t>(gpus), 0.0));
  l.pcie_sibling.assign(static_cast<size_t>(gpus), -1);
  std::vector<std::set<uint32_t>> host_dirs(static_cast<size_t>(gpus));
  for (int a = 0; a < gpus; ++a) {
    for (uint32_t d : topo.route(topo.host_node(0), topo.gpu_node(a)).directions) host_dirs[static_cast<size_t>(a)].insert(d);
    for (int b = 0; b < gpus; ++b) {
      if (a == b) continue;
      double bw = 1e300;
      bool nvlink = true;
      for (uint32_t d : topo.route(topo.gpu_node(a), topo.gpu_node(b)).directions) {
        nvlink = nvlink && topo.directions()[d].kind == LinkKind::nvlink;
        bw = std::min(bw, topo.directions()[d].bandwidth_Bps);
      }
      l.peer_Bps[static_cast<size_t>(a)][static_cast<size_t>(b)] = nvlink ? bw : 0;
    }
  }
  for (int a = 0; a < gpus; ++a)
    for (int b = 0; b < gpus && l.pcie_sibling[static_cast<size_t>(a)] < 0; ++b) {
      if (a == b) continue;
      for (uint32_t d : host_dirs[static_cast<size_t>(a)])
        if (host_dirs[static_cast<size_t>(b)].count(d) != 0) l.pcie_sibling[static_cast<size_t>(a)] = b;
    }
  // Routes as SimPlatform runs a lone copy on them: the capacity groups crossed (and the copy
  // engines' shared totals when the spec bounds them), the smallest of their rates and of one
  // engine's, and the route latency.
  l.routes.assign(static_cast<size_t>(gpus) + 1, std::vector<RouteCost>(static_cast<size_t>(gpus)));
  const uint32_t groups = static_cast<uint32_t>(topo.capacity_group_count());
  for (int src = 0; src <= gpus; ++src)
    for (int dst = 0; dst < gpus; ++dst) {
      if (src == dst) continue;
      const Topology::Route& r = topo.route(src == gpus ? topo.host_node(0) : topo.gpu_node(src), topo.gpu_node(dst));
      RouteCost c;
      c.Bps = 1e300;
      c.latency = r.latency;
      for (uint32_t d : r.directions) {
        c.directions.push_back(static_cast<uint32_t>(topo.directions()[d].capacity_group));
        c.Bps = std::min(c.Bps, topo.directions()[d].bandwidth_Bps);
      }
      for (int end : {src, dst}) {
        if (end == gpus) continue;
        const GpuSpec& g = platform.gpu(end);
        if (g.copy_engine_Bps <= 0) continue;
        c.Bps = std::min(c.Bps, g.copy_engine_Bps);
        c.directions.push_back(groups + static_cast<uint32_t>(end == src ? end : gpus + end));
      }
      std::sort(c.directions.begin(), c.directions.end());
      l.routes[static_cast<size_t>(src)][static_cast<size_t>(dst)] = std::move(c);
    }
  return l;
}

}  // namespace parallax

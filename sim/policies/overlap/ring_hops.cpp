// File: sim/policies/overlap/ring_hops.cpp
// Route each hop over the Topology, count the hops per link direction, divide (ring_hops.h).
#include "sim/policies/overlap/ring_hops.h"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/platform/platform.h"
#include "sim/platform/topology.h"

namespace parallax {

namespace {

models::LinkType hop_link_type(const Topology& topo, const Topology::Route& route) {
  models::LinkType type = models::LinkType::nvlink;
  for (uint32_t d : route.directions) {
    const LinkKind kind = topo.directions()[d].kind;
    if (kind == LinkKind::network) return models::LinkType::net;
    if (kind != LinkKind::nvlink) type = models::LinkType::pcie;
  }
  return type;
}

std::vector<int> route_groups(const Topology& topo, const Topology::Route& route) {
  std::vector<int> groups;
  for (uint32_t d : route.directions) groups.push_back(topo.directions()[d].capacity_group);
  std::sort(groups.begin(), groups.end());
  groups.erase(std::unique(groups.begin(), groups.end()), groups.end());
  return groups;
}

}  // namespace

std::vector<models::RingParams> concurrent_ring_hops(const HardwareSpec& spec,
                                                     std::span<const std::vector<int>> orders) {
  Topology topo(spec);
  const int gpus = cluster_gpu_count(spec);  // every node's GPUs when spec.fabric.nodes > 1
  struct RoutedHop {
    Topology::Route route;
    std::vector<int> groups;
  };
  std::vector<std::vector<RoutedHop>> routed(orders.size());
  std::map<int, int> crossings;  // capacity group -> hops crossing it
  std::map<int, double> capacity;
  for (size_t r = 0; r < orders.size(); ++r) {
    const std::vector<int>& order = orders[r];
    if (order.empty()) throw std::invalid_argument("ring_hops: an empty ring order");
    std::vector<int> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      throw PlatformError(fmt::format("ring order {} names a GPU twice", r));
    for (int g : order)
      if (g < 0 || g >= gpus) throw PlatformError(fmt::format("GPU {} does not exist (the machine has {})", g, gpus));
    if (order.size() == 1) continue;
    for (size_t i = 0; i < order.size(); ++i) {
      const int src = order[i], dst = order[(i + 1) % order.size()];
      RoutedHop hop{topo.route(topo.gpu_node(src), topo.gpu_node(dst)), {}};
      hop.groups = route_groups(topo, hop.route);
      for (int g : hop.groups) ++crossings[g];
      routed[r].push_back(std::move(hop));
    }
  }
  for (const Topology::LinkDirection& d : topo.directions()) capacity[d.capacity_group] = d.bandwidth_Bps;
  std::vector<models::RingParams> rings(orders.size());
  for (size_t r = 0; r < orders.size(); ++r) {
    if (orders[r].size() == 1) {
      // A one-GPU ring moves nothing; one infinitely fast hop keeps ranks() == 1.
      rings[r].hops.push_back({std::numeric_limits<double>::infinity(), 0.0, models::LinkType::nvlink});
      continue;
    }
    for (const RoutedHop& hop : routed[r]) {
      double bw = std::numeric_limits<double>::infinity();
      for (int g : hop.groups) bw = std::min(bw, capacity[g] / crossings[g]);
      rings[r].hops.push_back({bw, hop.route.latency.to_seconds(), hop_link_type(topo, hop.route)});
    }
  }
  return rings;
}

models::RingParams ring_hops(const HardwareSpec& spec, const std::vector<int>& order) {
  const std::vector<int> one[1] = {order};
  return concurrent_ring_hops(spec, one).front();
}

std::vector<int> counter_rotating_order(const std::vector<int>& order) {
  std::vector<int> out;
  if (order.empty()) return out;
  out.push_back(order.front());
  for (size_t i = order.size() - 1; i >= 1; --i) out.push_back(order[i]);
  return out;
}

}  // namespace parallax

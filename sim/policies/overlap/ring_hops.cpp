// File: sim/policies/overlap/ring_hops.cpp
// Ask the Platform for each hop's path, count the hops per link, divide (ring_hops.h).
#include "sim/policies/overlap/ring_hops.h"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

namespace parallax {

namespace {

models::LinkType hop_link_type(const Path& path) {
  models::LinkType type = models::LinkType::nvlink;
  for (const PathLink& l : path.links) {
    if (l.copy_engine) continue;
    if (l.kind == LinkKind::network) return models::LinkType::net;
    if (l.kind != LinkKind::nvlink) type = models::LinkType::pcie;
  }
  return type;
}

// The link resources a hop crosses, each once, with their capacities (copy engines are not
// part of the ring model).
std::map<uint32_t, double> hop_links(const Path& path) {
  std::map<uint32_t, double> links;
  for (const PathLink& l : path.links)
    if (!l.copy_engine) links.emplace(l.resource, l.bandwidth_Bps);
  return links;
}

}  // namespace

std::vector<models::RingParams> concurrent_ring_hops(Platform& platform, std::span<const std::vector<int>> orders) {
  const int gpus = platform.gpu_count();
  struct RoutedHop {
    Path path;
    std::map<uint32_t, double> links;
  };
  std::vector<std::vector<RoutedHop>> routed(orders.size());
  std::map<uint32_t, int> crossings;  // link resource -> hops crossing it
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
      RoutedHop hop{platform.path(Endpoint::gpu(src), Endpoint::gpu(dst)), {}};
      hop.links = hop_links(hop.path);
      for (const auto& [link, capacity] : hop.links) ++crossings[link];
      routed[r].push_back(std::move(hop));
    }
  }
  std::vector<models::RingParams> rings(orders.size());
  for (size_t r = 0; r < orders.size(); ++r) {
    if (orders[r].size() == 1) {
      // A one-GPU ring moves nothing; one infinitely fast hop keeps ranks() == 1.
      rings[r].hops.push_back({std::numeric_limits<double>::infinity(), 0.0, models::LinkType::nvlink});
      continue;
    }
    for (const RoutedHop& hop : routed[r]) {
      double bw = std::numeric_limits<double>::infinity();
      for (const auto& [link, capacity] : hop.links) bw = std::min(bw, capacity / crossings[link]);
      rings[r].hops.push_back({bw, hop.path.latency.to_seconds(), hop_link_type(hop.path)});
    }
  }
  return rings;
}

models::RingParams ring_hops(Platform& platform, const std::vector<int>& order) {
  const std::vector<int> one[1] = {order};
  return concurrent_ring_hops(platform, one).front();
}

std::vector<int> counter_rotating_order(const std::vector<int>& order) {
  std::vector<int> out;
  if (order.empty()) return out;
  out.push_back(order.front());
  for (size_t i = order.size() - 1; i >= 1; --i) out.push_back(order[i]);
  return out;
}

}  // namespace parallax

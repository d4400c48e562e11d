// File: sim/policies/overlap/ring_hops.cpp
// Ask the Platform for each hop's path, count the hops per link, divide (ring_hops.h).
#include "sim/policies/overlap/ring_hops.h"

#include <algorithm>
#include <limits>
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

void check_ring_order(const std::vector<int>& order, size_t r, int gpus) {
  if (order.empty()) throw std::invalid_argument("ring_hops: an empty ring order");
  std::vector<int> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    throw PlatformError(fmt::format("ring order {} names a GPU twice", r));
  for (int g : order)
    if (g < 0 || g >= gpus) throw PlatformError(fmt::format("GPU {} does not exist (the machine has {})", g, gpus));
}

}  // namespace

HopLinks hop_links_of(const Path& path, std::vector<uint32_t>& resource_ids) {
  HopLinks hop;
  hop.latency_s = path.latency.to_seconds();
  hop.type = hop_link_type(path);
  for (const PathLink& l : path.links) {
    if (l.copy_engine) continue;
    auto it = std::find(resource_ids.begin(), resource_ids.end(), l.resource);
    const auto dense = static_cast<uint32_t>(it - resource_ids.begin());
    if (it == resource_ids.end()) resource_ids.push_back(l.resource);
    const bool seen = std::any_of(hop.links.begin(), hop.links.end(), [&](const auto& e) { return e.first == dense; });
    if (!seen) hop.links.emplace_back(dense, l.bandwidth_Bps);
  }
  return hop;
}

std::vector<models::RingParams> ring_params_over(std::span<const std::vector<const HopLinks*>> rings,
                                                 std::vector<int>& crossings) {
  for (const auto& ring : rings)
    for (const HopLinks* hop : ring)
      for (const auto& [link, capacity] : hop->links) {
        if (link >= crossings.size()) crossings.resize(link + 1, 0);
        ++crossings[link];
      }
  std::vector<models::RingParams> out(rings.size());
  for (size_t r = 0; r < rings.size(); ++r) {
    if (rings[r].empty()) {
      // A one-GPU ring moves nothing; one infinitely fast hop keeps ranks() == 1.
      out[r].hops.push_back({std::numeric_limits<double>::infinity(), 0.0, models::LinkType::nvlink});
      continue;
    }
    for (const HopLinks* hop : rings[r]) {
      double bw = std::numeric_limits<double>::infinity();
      for (const auto& [link, capacity] : hop->links) bw = std::min(bw, capacity / crossings[link]);
      out[r].hops.push_back({bw, hop->latency_s, hop->type});
    }
  }
  for (const auto& ring : rings)
    for (const HopLinks* hop : ring)
      for (const auto& [link, capacity] : hop->links) crossings[link] = 0;
  return out;
}

std::vector<models::RingParams> concurrent_ring_hops(Platform& platform, std::span<const RingRoute> rings) {
  const int gpus = platform.gpu_count();
  std::vector<uint32_t> resource_ids;
  std::vector<std::vector<HopLinks>> hops(rings.size());
  for (size_t r = 0; r < rings.size(); ++r) {
    const std::vector<int>& order = rings[r].order;
    check_ring_order(order, r, gpus);
    if (!rings[r].paths.empty() && rings[r].paths.size() != order.size())
      throw std::invalid_argument(fmt::format("ring {}: {} path indices for {} hops", r, rings[r].paths.size(), order.size()));
    if (order.size() == 1) continue;
    for (size_t i = 0; i < order.size(); ++i) {
      const Endpoint src = Endpoint::gpu(order[i]), dst = Endpoint::gpu(order[(i + 1) % order.size()]);
      const int k = rings[r].path_of_hop(i);
      if (k == 0) {
        hops[r].push_back(hop_links_of(platform.path(src, dst), resource_ids));
        continue;
      }
      const std::vector<Path> paths = platform.paths(src, dst);
      if (k < 0 || static_cast<size_t>(k) >= paths.size())
        throw PlatformError(fmt::format("GPU {} -> {}: no path {} (there are {})", src.index, dst.index, k, paths.size()));
      hops[r].push_back(hop_links_of(paths[static_cast<size_t>(k)], resource_ids));
    }
  }
  std::vector<std::vector<const HopLinks*>> views(rings.size());
  for (size_t r = 0; r < rings.size(); ++r)
    for (const HopLinks& h : hops[r]) views[r].push_back(&h);
  std::vector<int> crossings(resource_ids.size(), 0);
  return ring_params_over(views, crossings);
}

std::vector<models::RingParams> concurrent_ring_hops(Platform& platform, std::span<const std::vector<int>> orders) {
  std::vector<RingRoute> rings;
  for (const std::vector<int>& o : orders) rings.push_back({o, {}});
  return concurrent_ring_hops(platform, rings);
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

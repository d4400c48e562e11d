// File: sim/platform/topology.cpp
#include "sim/platform/topology.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <queue>
#include <tuple>

#include "sim/platform/platform.h"

namespace parallax {

const char* to_string(LinkKind k) {
  switch (k) {
    case LinkKind::nvlink: return "nvlink";
    case LinkKind::pcie: return "pcie";
    case LinkKind::network: return "network";
    case LinkKind::other: return "other";
  }
  return "?";
}

const char* to_string(NodeKind k) {
  switch (k) {
    case NodeKind::gpu: return "gpu";
    case NodeKind::host: return "host";
    case NodeKind::pcie_switch: return "pcie_switch";
    case NodeKind::nvswitch: return "nvswitch";
    case NodeKind::nic: return "nic";
    case NodeKind::network_switch: return "network_switch";
  }
  return "?";
}

Topology::Topology(const HardwareSpec& spec) : gpu_count_(static_cast<int>(spec.gpus.size())) {
  auto add_node = [&](const std::string& name, NodeKind kind) {
    if (!index_.emplace(name, static_cast<int>(names_.size())).second)
      throw PlatformError(fmt::format("hardware '{}': node '{}' is defined twice", spec.name, name));
    names_.push_back(name);
    kinds_.push_back(kind);
  };
  for (size_t i = 0; i < spec.gpus.size(); ++i) add_node(gpu_node_name(static_cast<int>(i)), NodeKind::gpu);
  for (size_t i = 0; i < spec.hosts.size(); ++i) add_node(host_node_name(static_cast<int>(i)), NodeKind::host);
  for (const NodeSpec& n : spec.switches) add_node(n.name, n.kind);
  out_.resize(names_.size());

  for (const LinkSpec& l : spec.links) {
    const int a = node_index(l.a), b = node_index(l.b);
    if (a < 0 || b < 0)
      throw PlatformError(fmt::format("hardware '{}': link {}–{} names an unknown node '{}'", spec.name,
                                      l.a, l.b, a < 0 ? l.a : l.b));
    if (a == b) throw PlatformError(fmt::format("hardware '{}': link {}–{} is a loop", spec.name, l.a, l.b));
    if (!(l.bandwidth_Bps > 0))
      throw PlatformError(fmt::format("hardware '{}': link {}–{} has no bandwidth", spec.name, l.a, l.b));
    const Time lat = Time::seconds(l.latency_s);
    const int group_ab = capacity_groups_++;
    const int group_ba = l.full_duplex ? capacity_groups_++ : group_ab;
    auto add_dir = [&](int from, int to, int group) {
      out_[from].push_back(static_cast<uint32_t>(directions_.size()));
      directions_.push_back(LinkDirection{from, to, l.kind, l.bandwidth_Bps, lat, group,
                                          names_[from] + "→" + names_[to]});
    };
    add_dir(a, b, group_ab);
    add_dir(b, a, group_ba);
  }

  // Every GPU and host must reach every other one (checked from GPU 0 or host 0 over forwarding
  // nodes, with GPUs and hosts as leaves... hosts forward, GPUs do not).
  const int root = names_.empty() ? -1 : 0;
  if (root >= 0) {
    std::vector<char> seen(names_.size(), 0);
    std::vector<int> stack{root};
    seen[root] = 1;
    while (!stack.empty()) {
      int n = stack.back();
      stack.pop_back();
      if (n != root && kinds_[n] == NodeKind::gpu) continue;
      for (uint32_t d : out_[n])
        if (!seen[directions_[d].to]) {
          seen[directions_[d].to] = 1;
          stack.push_back(directions_[d].to);
        }
    }
    for (int n = 0; n < node_count(); ++n)
      if (!seen[n] && (kinds_[n] == NodeKind::gpu || kinds_[n] == NodeKind::host))
        throw PlatformError(fmt::format("hardware '{}': {} '{}' is not connected to {} (no route)",
                                        spec.name, to_string(kinds_[n]), names_[n], names_[root]));
  }
}

int Topology::node_index(std::string_view name) const {
  auto it = index_.find(std::string(name));
  return it == index_.end() ? -1 : it->second;
}

const Topology::Route& Topology::route(int src, int dst) {
  const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(src)) << 32) | static_cast<uint32_t>(dst);
  auto it = routes_.find(key);
  if (it != routes_.end()) return it->second;
  return routes_.emplace(key, compute_route(src, dst)).first->second;
}

// Dijkstra with a lexicographic cost and an early exit at the destination: on a star of 4096
// GPUs a route costs one pass over the switch's links, not a whole shortest-path tree.
Topology::Route Topology::compute_route(int src, int dst) const {
  using Cost = std::tuple<int64_t, int, int>;  // latency ps, non-NVLink hops, hops
  const Cost inf{std::numeric_limits<int64_t>::max(), 0, 0};
  std::vector<Cost> best(names_.size(), inf);
  std::vector<int32_t> via(names_.size(), -1);
  using Item = std::pair<Cost, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  best[src] = Cost{0, 0, 0};
  queue.push({best[src], src});
  while (!queue.empty()) {
    auto [cost, n] = queue.top();
    queue.pop();
    if (cost != best[n]) continue;
    if (n == dst) break;
    for (uint32_t d : out_[n]) {
      const LinkDirection& l = directions_[d];
      if (l.to != dst && kinds_[l.to] == NodeKind::gpu) continue;  // a dead end: skip it early
      Cost next{std::get<0>(cost) + l.latency.ps(), std::get<1>(cost) + (l.kind == LinkKind::nvlink ? 0 : 1),
                std::get<2>(cost) + 1};
      if (next < best[l.to]) {
        best[l.to] = next;
        via[l.to] = static_cast<int32_t>(d);
        queue.push({next, l.to});
      }
    }
  }
  if (via[dst] < 0)
    throw PlatformError(fmt::format("no route from {} to {}", names_[src], names_[dst]));
  Route r;
  for (int n = dst; n != src; n = directions_[via[n]].from) r.directions.push_back(static_cast<uint32_t>(via[n]));
  std::reverse(r.directions.begin(), r.directions.end());
  r.latency = Time::ps(std::get<0>(best[dst]));
  return r;
}

}  // namespace parallax

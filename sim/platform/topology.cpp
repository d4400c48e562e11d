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

Topology::Topology(const HardwareSpec& spec) : gpu_count_(cluster_gpu_count(spec)), nodes_(spec.fabric.nodes) {
  if (nodes_ < 1) throw PlatformError(fmt::format("hardware '{}': nodes must be >= 1, got {}", spec.name, nodes_));
  box_.gpus = static_cast<int>(spec.gpus.size());
  box_.hosts = static_cast<int>(spec.hosts.size());
  box_.switches = static_cast<int>(spec.switches.size());
  auto add_node = [&](const std::string& name, NodeKind kind) {
    if (!index_.emplace(name, static_cast<int>(names_.size())).second)
      throw PlatformError(fmt::format("hardware '{}': node '{}' is defined twice", spec.name, name));
    names_.push_back(name);
    kinds_.push_back(kind);
  };
  // One box keeps its own names; in a cluster, GPUs and hosts are numbered across the cluster and
  // a box's switches are prefixed with their node ("n3.nvswitch").
  for (int n = 0; n < nodes_; ++n)
    for (int i = 0; i < box_.gpus; ++i) add_node(gpu_node_name(n * box_.gpus + i), NodeKind::gpu);
  for (int n = 0; n < nodes_; ++n)
    for (int i = 0; i < box_.hosts; ++i) add_node(host_node_name(n * box_.hosts + i), NodeKind::host);
  for (int n = 0; n < nodes_; ++n)
    for (const NodeSpec& sw : spec.switches) add_node(nodes_ == 1 ? sw.name : fmt::format("n{}.{}", n, sw.name), sw.kind);
  out_.resize(names_.size());
  add_box_links(spec);
  check_box_connected(spec);
  if (nodes_ > 1) add_fabric(spec);
}

int Topology::add_direction(int from, int to, LinkKind kind, double bandwidth_Bps, Time latency, int group) {
  out_[from].push_back(static_cast<uint32_t>(directions_.size()));
  directions_.push_back(LinkDirection{from, to, kind, bandwidth_Bps, latency, group, names_[from] + "→" + names_[to]});
  return static_cast<int>(directions_.size() - 1);
}

// Box n's directions are box 0's shifted by n * box_.directions (and its capacity groups by
// n * box_.groups): the same links, in the same order, for every box.
std::unordered_map<std::string, int> Topology::box0_nodes(const HardwareSpec& spec) const {
  std::unordered_map<std::string, int> box0;  // the spec's names -> node in box 0
  for (int i = 0; i < box_.gpus; ++i) box0.emplace(gpu_node_name(i), i);
  for (int i = 0; i < box_.hosts; ++i) box0.emplace(host_node_name(i), gpu_count_ + i);
  for (int i = 0; i < box_.switches; ++i) box0.emplace(spec.switches[static_cast<size_t>(i)].name, gpu_count_ + nodes_ * box_.hosts + i);
  return box0;
}

void Topology::add_box_links(const HardwareSpec& spec) {
  const std::unordered_map<std::string, int> box0 = box0_nodes(spec);
  std::vector<std::pair<int, int>> ends;  // box 0 nodes of each link
  for (const LinkSpec& l : spec.links) {
    const auto a = box0.find(l.a), b = box0.find(l.b);
    if (a == box0.end() || b == box0.end())
      throw PlatformError(fmt::format("hardware '{}': link {}–{} names an unknown node '{}'", spec.name, l.a, l.b,
                                      a == box0.end() ? l.a : l.b));
    if (a->second == b->second) throw PlatformError(fmt::format("hardware '{}': link {}–{} is a loop", spec.name, l.a, l.b));
    if (!(l.bandwidth_Bps > 0))
      throw PlatformError(fmt::format("hardware '{}': link {}–{} has no bandwidth", spec.name, l.a, l.b));
    ends.emplace_back(a->second, b->second);
  }
  for (int n = 0; n < nodes_; ++n) {
    for (size_t i = 0; i < spec.links.size(); ++i) {
      const LinkSpec& l = spec.links[i];
      const Time lat = Time::seconds(l.latency_s);
      const int group_ab = capacity_groups_++;
      const int group_ba = l.full_duplex ? capacity_groups_++ : group_ab;
      const int a = from_box0(ends[i].first, n), b = from_box0(ends[i].second, n);
      add_direction(a, b, l.kind, l.bandwidth_Bps, lat, group_ab);
      add_direction(b, a, l.kind, l.bandwidth_Bps, lat, group_ba);
    }
    if (n == 0) {
      box_.directions = static_cast<int>(directions_.size());
      box_.groups = capacity_groups_;
    }
  }
}

// Every GPU and host of box 0 (so of every box) must reach the others over the box's links,
// searched from GPU 0 (or host 0) over forwarding nodes: hosts and switches forward, GPUs do not.
void Topology::check_box_connected(const HardwareSpec& spec) const {
  if (names_.empty()) return;
  const int root = 0;
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
    if (!seen[n] && node_box(n) == 0 && (kinds_[n] == NodeKind::gpu || kinds_[n] == NodeKind::host))
      throw PlatformError(fmt::format("hardware '{}': {} '{}' is not connected to {} (no route)", spec.name,
                                      to_string(kinds_[n]), names_[n], names_[root]));
}

// NICs (two directions to their PCIe switch, two to their leaf), leaves, and the spine with one
// link per leaf. Latencies sit where a route crosses something once: each NIC's PCIe directions
// carry the NIC's latency (a route crosses two NICs), every direction *into* a switch carries the
// switch latency (a route through one leaf pays one switch, through the spine three).
void Topology::add_fabric(const HardwareSpec& spec) {
  const FabricSpec& f = spec.fabric;
  nics_per_box_ = static_cast<int>(f.nics.size());
  if (nics_per_box_ == 0)
    throw PlatformError(fmt::format("hardware '{}': {} nodes need NICs (fabric.nics)", spec.name, nodes_));
  if (!(f.oversubscription >= 1))
    throw PlatformError(fmt::format("hardware '{}': fabric oversubscription must be >= 1", spec.name));
  rail_ = f.shape == FabricSpec::Shape::rail_optimized;
  nodes_per_leaf_ = f.nodes_per_leaf <= 0 ? nodes_ : std::min(f.nodes_per_leaf, nodes_);
  const int groups = (nodes_ + nodes_per_leaf_ - 1) / nodes_per_leaf_;
  const int leaves = rail_ ? groups * nics_per_box_ : groups;
  const std::unordered_map<std::string, int> box0 = box0_nodes(spec);
  for (const NicSpec& nic : f.nics) {
    const auto it = box0.find(nic.attach);
    const int node0 = it == box0.end() ? -1 : it->second;
    if (node0 < 0)
      throw PlatformError(fmt::format("hardware '{}': a NIC attaches to unknown node '{}'", spec.name, nic.attach));
    if (kinds_[node0] == NodeKind::gpu)
      throw PlatformError(fmt::format("hardware '{}': a NIC attaches to GPU '{}' (GPUs do not forward; name its PCIe switch)",
                                      spec.name, nic.attach));
    if (!(nic.bandwidth_Bps > 0)) throw PlatformError(fmt::format("hardware '{}': a NIC has no bandwidth", spec.name));
    nic_attach0_.push_back(node0);
  }
  auto add_fabric_node = [&](std::string name, NodeKind kind) {
    index_.emplace(name, static_cast<int>(names_.size()));
    names_.push_back(std::move(name));
    kinds_.push_back(kind);
    out_.emplace_back();
  };
  nic_base_ = node_count();
  for (int n = 0; n < nodes_; ++n)
    for (int k = 0; k < nics_per_box_; ++k) add_fabric_node(fmt::format("n{}.nic{}", n, k), NodeKind::nic);
  leaf_base_ = node_count();
  for (int g = 0; g < groups; ++g) {
    if (!rail_) add_fabric_node(fmt::format("leaf{}", g), NodeKind::network_switch);
    else for (int k = 0; k < nics_per_box_; ++k) add_fabric_node(fmt::format("leaf{}.rail{}", g, k), NodeKind::network_switch);
  }
  if (leaves > 1) add_fabric_node("spine", NodeKind::network_switch);
  spine_ = leaves > 1 ? node_count() - 1 : -1;

  const Time sw = Time::seconds(f.switch_latency_s);
  std::vector<double> down(static_cast<size_t>(leaves), 0.0);
  nic_dir_base_ = static_cast<uint32_t>(directions_.size());
  for (int n = 0; n < nodes_; ++n)
    for (int k = 0; k < nics_per_box_; ++k) {
      const NicSpec& nic = f.nics[static_cast<size_t>(k)];
      const int node = nic_base_ + n * nics_per_box_ + k;
      const int attach = from_box0(nic_attach0_[static_cast<size_t>(k)], n);
      const int leaf = leaf_base_ + (rail_ ? (n / nodes_per_leaf_) * nics_per_box_ + k : n / nodes_per_leaf_);
      const Time lat = Time::seconds(nic.latency_s);
      add_direction(attach, node, LinkKind::pcie, nic.bandwidth_Bps, lat, capacity_groups_++);
      add_direction(node, attach, LinkKind::pcie, nic.bandwidth_Bps, lat, capacity_groups_++);
      add_direction(node, leaf, LinkKind::network, nic.bandwidth_Bps, sw, capacity_groups_++);
      add_direction(leaf, node, LinkKind::network, nic.bandwidth_Bps, Time::zero(), capacity_groups_++);
      down[static_cast<size_t>(leaf - leaf_base_)] += nic.bandwidth_Bps;
    }
  spine_dir_base_ = static_cast<uint32_t>(directions_.size());
  if (spine_ >= 0)
    for (int l = 0; l < leaves; ++l) {
      const double up = down[static_cast<size_t>(l)] / f.oversubscription;
      add_direction(leaf_base_ + l, spine_, LinkKind::network, up, sw, capacity_groups_++);
      add_direction(spine_, leaf_base_ + l, LinkKind::network, up, sw, capacity_groups_++);
    }
}

int Topology::node_index(std::string_view name) const {
  auto it = index_.find(std::string(name));
  return it == index_.end() ? -1 : it->second;
}

int Topology::node_box(int node) const {
  if (node < 0) return -1;
  if (node < gpu_count_) return box_.gpus == 0 ? -1 : node / box_.gpus;
  int rest = node - gpu_count_;
  if (rest < nodes_ * box_.hosts) return rest / box_.hosts;
  rest -= nodes_ * box_.hosts;
  if (rest < nodes_ * box_.switches) return rest / box_.switches;
  return -1;
}

int Topology::to_box0(int node) const {
  if (node < gpu_count_) return node % box_.gpus;
  int rest = node - gpu_count_;
  if (rest < nodes_ * box_.hosts) return gpu_count_ + rest % box_.hosts;
  rest -= nodes_ * box_.hosts;
  return gpu_count_ + nodes_ * box_.hosts + rest % box_.switches;
}

int Topology::from_box0(int node0, int box) const {
  if (node0 < gpu_count_) return box * box_.gpus + node0;
  int rest = node0 - gpu_count_;
  if (rest < box_.hosts) return gpu_count_ + box * box_.hosts + rest;
  rest -= nodes_ * box_.hosts;
  return gpu_count_ + nodes_ * box_.hosts + box * box_.switches + rest;
}

Topology::Route Topology::route(int src, int dst) {
  const int bs = node_box(src), bd = node_box(dst);
  if (bs >= 0 && bs == bd) {
    if (bs == 0) return box_route(src, dst);
    Route r = box_route(to_box0(src), to_box0(dst));
    const uint32_t shift = static_cast<uint32_t>(bs) * static_cast<uint32_t>(box_.directions);
    for (uint32_t& d : r.directions) d += shift;
    return r;
  }
  if (bs >= 0 && bd >= 0) return fabric_route(src, dst);
  return compute_route(src, dst, false);  // a NIC, leaf or spine as an end: queries only
}

Topology::Route Topology::box_route(int src0, int dst0) {
  const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(src0)) << 32) | static_cast<uint32_t>(dst0);
  auto it = routes_.find(key);
  if (it != routes_.end()) return it->second;
  return routes_.emplace(key, compute_route(src0, dst0, true)).first->second;
}

std::vector<Topology::Route> Topology::routes(int src, int dst) {
  const int bs = node_box(src), bd = node_box(dst);
  if (bs < 0 || bs != bd) return {route(src, dst)};
  const int s0 = to_box0(src), d0 = to_box0(dst);
  const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(s0)) << 32) | static_cast<uint32_t>(d0);
  auto it = disjoint_.find(key);
  if (it == disjoint_.end()) {
    std::vector<Route> found{box_route(s0, d0)};
    std::vector<char> avoid(static_cast<size_t>(capacity_groups_), 0);
    while (static_cast<int>(found.size()) < kMaxPaths) {
      for (uint32_t d : found.back().directions) avoid[static_cast<size_t>(directions_[d].capacity_group)] = 1;
      Route next = compute_route(s0, d0, true, &avoid);
      if (next.directions.empty()) break;
      found.push_back(std::move(next));
    }
    it = disjoint_.emplace(key, std::move(found)).first;
  }
  std::vector<Route> out = it->second;
  const uint32_t shift = static_cast<uint32_t>(bs) * static_cast<uint32_t>(box_.directions);
  for (Route& r : out)
    for (uint32_t& d : r.directions) d += shift;
  return out;
}

// Source GPU → its box route to its NIC's PCIe switch → NIC → leaf → (spine → leaf) → NIC →
// PCIe switch → box route → destination. A host (or switch) as an end uses NIC 0.
Topology::Route Topology::fabric_route(int src, int dst) {
  const int bs = node_box(src), bd = node_box(dst);
  const int s0 = to_box0(src), d0 = to_box0(dst);
  const int ks = s0 < box_.gpus ? nic_of_gpu(s0, box_.gpus, nics_per_box_) : 0;
  const int kd = d0 < box_.gpus ? nic_of_gpu(d0, box_.gpus, nics_per_box_) : 0;
  Route r;
  auto append_box = [&](int a0, int b0, int box) {
    if (a0 == b0) return;
    const Route part = box_route(a0, b0);
    const uint32_t shift = static_cast<uint32_t>(box) * static_cast<uint32_t>(box_.directions);
    for (uint32_t d : part.directions) r.directions.push_back(d + shift);
  };
  auto leaf_of = [&](int n, int k) { return rail_ ? (n / nodes_per_leaf_) * nics_per_box_ + k : n / nodes_per_leaf_; };
  const uint32_t nic_s = nic_dir_base_ + 4 * static_cast<uint32_t>(bs * nics_per_box_ + ks);
  const uint32_t nic_d = nic_dir_base_ + 4 * static_cast<uint32_t>(bd * nics_per_box_ + kd);
  append_box(s0, nic_attach0_[static_cast<size_t>(ks)], bs);
  r.directions.push_back(nic_s);      // PCIe switch → NIC
  r.directions.push_back(nic_s + 2);  // NIC → leaf
  const int ls = leaf_of(bs, ks), ld = leaf_of(bd, kd);
  if (ls != ld) {
    r.directions.push_back(spine_dir_base_ + 2 * static_cast<uint32_t>(ls));      // leaf → spine
    r.directions.push_back(spine_dir_base_ + 2 * static_cast<uint32_t>(ld) + 1);  // spine → leaf
  }
  r.directions.push_back(nic_d + 3);  // leaf → NIC
  r.directions.push_back(nic_d + 1);  // NIC → PCIe switch
  append_box(nic_attach0_[static_cast<size_t>(kd)], d0, bd);
  int64_t ps = 0;
  for (uint32_t d : r.directions) ps += directions_[d].latency.ps();
  r.latency = Time::ps(ps);
  return r;
}

// Dijkstra with a lexicographic cost and an early exit at the destination: on a star of 4096
// GPUs a route costs one pass over the switch's links, not a whole shortest-path tree.
// `box_only`: only box 0's own directions (a route inside a box never leaves it).
Topology::Route Topology::compute_route(int src, int dst, bool box_only, const std::vector<char>* avoid) const {
  const uint32_t limit = box_only ? static_cast<uint32_t>(box_.directions) : UINT32_MAX;
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
      if (d >= limit) continue;
      const LinkDirection& l = directions_[d];
      if (l.to != dst && kinds_[l.to] == NodeKind::gpu) continue;  // a dead end: skip it early
      if (avoid != nullptr && (*avoid)[static_cast<size_t>(l.capacity_group)] != 0) continue;
      Cost next{std::get<0>(cost) + l.latency.ps(), std::get<1>(cost) + (l.kind == LinkKind::nvlink ? 0 : 1),
                std::get<2>(cost) + 1};
      if (next < best[l.to]) {
        best[l.to] = next;
        via[l.to] = static_cast<int32_t>(d);
        queue.push({next, l.to});
      }
    }
  }
  if (via[dst] < 0 && avoid != nullptr) return {};
  if (via[dst] < 0)
    throw PlatformError(fmt::format("no route from {} to {}", names_[src], names_[dst]));
  Route r;
  for (int n = dst; n != src; n = directions_[via[n]].from) r.directions.push_back(static_cast<uint32_t>(via[n]));
  std::reverse(r.directions.begin(), r.directions.end());
  r.latency = Time::ps(std::get<0>(best[dst]));
  return r;
}

}  // namespace parallax

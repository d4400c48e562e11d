// File: sim/platform/topology.cpp
#include "sim/platform/topology.h"

#include <fmt/format.h>

#include <algorithm>
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
  Route r;
  r.latency = route_into(src, dst, r.directions);
  return r;
}

Time Topology::route_into(int src, int dst, std::vector<uint32_t>& directions) {
  directions.clear();
  const int bs = node_box(src), bd = node_box(dst);
  if (bs >= 0 && bs == bd) {
    const uint32_t shift = static_cast<uint32_t>(bs) * static_cast<uint32_t>(box_.directions);
    return append_box_route(to_box0(src), to_box0(dst), shift, directions);
  }
  if (bs >= 0 && bd >= 0) return append_fabric_route(src, dst, directions);
  search_from(src, false, nullptr);  // a NIC, leaf or spine as an end: queries only
  Route r = searched_route(src, dst, false);
  directions = std::move(r.directions);
  return r.latency;
}

int Topology::box_slot(int node0) const {
  if (node0 < gpu_count_) return node0;
  if (node0 < gpu_count_ + box_.hosts) return box_.gpus + (node0 - gpu_count_);
  return box_.gpus + box_.hosts + (node0 - gpu_count_ - nodes_ * box_.hosts);
}

// The route from src0 to dst0 read off `via_of(node)`: the direction a node's route from src0
// arrives by (-1: none). Walked twice, from the destination back: once to size the route, once
// to fill it in order. Appended to `out`, each direction plus `shift`; returns its latency.
template <class ViaOf>
Time Topology::append_walk(int src0, int dst0, ViaOf via_of, uint32_t shift, std::vector<uint32_t>& out) const {
  const auto no_route = [&] { return PlatformError(fmt::format("no route from {} to {}", names_[src0], names_[dst0])); };
  if (src0 == dst0) throw no_route();
  size_t hops = 0;
  for (int n = dst0; n != src0; ++hops) {
    const int32_t via = via_of(n);
    if (via < 0) throw no_route();
    n = directions_[static_cast<size_t>(via)].from;
  }
  const size_t first = out.size();
  out.resize(first + hops);
  Time latency;
  for (int n = dst0; n != src0;) {
    const auto via = static_cast<uint32_t>(via_of(n));
    out[first + --hops] = via + shift;
    latency += directions_[via].latency;
    n = directions_[via].from;
  }
  return latency;
}

// One search per source serves every destination: a random workload asks for most of a box's
// pairs once each, and a search from the source costs about what one pair's search did. A
// source's tree is kept from its second query on: its first reads the search itself, so a ring
// (each GPU the source of one hop) keeps no tree; P=512 on one crossbar kept 1 MiB of them,
// P=2048 16 MiB (docs/performance.md "Inlining, parked classes and page faults").
Topology::Route Topology::box_route(int src0, int dst0) {
  Route r;
  r.latency = append_box_route(src0, dst0, 0, r.directions);
  return r;
}

Time Topology::append_box_route(int src0, int dst0, uint32_t shift, std::vector<uint32_t>& out) {
  const int slots = box_.gpus + box_.hosts + box_.switches;
  if (trees_.empty()) {
    trees_.resize(static_cast<size_t>(slots));
    searched_.assign(static_cast<size_t>(slots), 0);
  }
  const auto src_slot = static_cast<size_t>(box_slot(src0));
  std::vector<int32_t>& tree = trees_[src_slot];
  if (tree.empty()) {
    // A source's first query reads one route: the other GPUs need not be reached (on a star of
    // P GPUs that was P relaxations a route, ring P=512: 2 % of the run).
    const bool first = !searched_[src_slot];
    search_from(src0, true, nullptr, first ? dst0 : -1);
    if (first) {
      searched_[src_slot] = 1;
      return append_walk(
          src0, dst0, [&](int n) { return search_.reached(n) ? search_.via[static_cast<size_t>(n)] : -1; }, shift, out);
    }
    tree.resize(static_cast<size_t>(slots));
    for (int slot = 0; slot < slots; ++slot) {
      const int n0 = slot < box_.gpus                ? slot
                     : slot < box_.gpus + box_.hosts ? gpu_count_ + slot - box_.gpus
                                                     : gpu_count_ + nodes_ * box_.hosts + slot - box_.gpus - box_.hosts;
      tree[static_cast<size_t>(slot)] = search_.reached(n0) ? search_.via[n0] : -1;
    }
  }
  return append_walk(src0, dst0, [&](int n) { return tree[static_cast<size_t>(box_slot(n))]; }, shift, out);
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
      search_from(s0, true, &avoid);
      Route next = searched_route(s0, d0, true);
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
Time Topology::append_fabric_route(int src, int dst, std::vector<uint32_t>& out) {
  const int bs = node_box(src), bd = node_box(dst);
  const int s0 = to_box0(src), d0 = to_box0(dst);
  const int ks = s0 < box_.gpus ? nic_of_gpu(s0, box_.gpus, nics_per_box_) : 0;
  const int kd = d0 < box_.gpus ? nic_of_gpu(d0, box_.gpus, nics_per_box_) : 0;
  Time latency;
  auto append_box = [&](int a0, int b0, int box) {
    if (a0 != b0) latency += append_box_route(a0, b0, static_cast<uint32_t>(box) * static_cast<uint32_t>(box_.directions), out);
  };
  auto append = [&](uint32_t d) {
    out.push_back(d);
    latency += directions_[d].latency;
  };
  auto leaf_of = [&](int n, int k) { return rail_ ? (n / nodes_per_leaf_) * nics_per_box_ + k : n / nodes_per_leaf_; };
  const uint32_t nic_s = nic_dir_base_ + 4 * static_cast<uint32_t>(bs * nics_per_box_ + ks);
  const uint32_t nic_d = nic_dir_base_ + 4 * static_cast<uint32_t>(bd * nics_per_box_ + kd);
  append_box(s0, nic_attach0_[static_cast<size_t>(ks)], bs);
  append(nic_s);      // PCIe switch → NIC
  append(nic_s + 2);  // NIC → leaf
  const int ls = leaf_of(bs, ks), ld = leaf_of(bd, kd);
  if (ls != ld) {
    append(spine_dir_base_ + 2 * static_cast<uint32_t>(ls));      // leaf → spine
    append(spine_dir_base_ + 2 * static_cast<uint32_t>(ld) + 1);  // spine → leaf
  }
  append(nic_d + 3);  // leaf → NIC
  append(nic_d + 1);  // NIC → PCIe switch
  append_box(nic_attach0_[static_cast<size_t>(kd)], d0, bd);
  return latency;
}

// Dijkstra from `src` to every node, with a lexicographic cost. GPUs other than the source take
// a cost but are never expanded (they do not forward), so they stay off the queue: on a star of
// 4096 GPUs a search costs one pass over the switch's links. The route to a node is the one the
// search with an early exit at that node found before (ties go to the first predecessor relaxed,
// in the same (cost, node) pop order; nothing popped later can improve a settled node).
// `box_only`: only box 0's own directions (a route inside a box never leaves it). `avoid`
// (routes()): capacity groups not to cross. The search allocates nothing once warm: its arrays
// live in search_ and are invalidated by bumping a stamp, not by clearing them.
void Topology::search_from(int src, bool box_only, const std::vector<char>* avoid, int target) {
  const uint32_t limit = box_only ? static_cast<uint32_t>(box_.directions) : UINT32_MAX;
  Search& s = search_;
  s.begin(names_.size());
  s.relax(src, SearchCost{0, 0, 0}, -1);
  s.heap.push_back({SearchCost{0, 0, 0}, src});
  while (!s.heap.empty()) {
    std::pop_heap(s.heap.begin(), s.heap.end(), std::greater<>());
    const auto [cost, n] = s.heap.back();
    s.heap.pop_back();
    if (cost != s.best[n]) continue;
    for (uint32_t d : out_[n]) {
      if (d >= limit) continue;
      const LinkDirection& l = directions_[d];
      if (avoid != nullptr && (*avoid)[static_cast<size_t>(l.capacity_group)] != 0) continue;
      // (A GPU is a dead end: reaching it or not changes no other node's route.)
      if (target >= 0 && l.to != target && kinds_[l.to] == NodeKind::gpu) continue;
      const SearchCost next{std::get<0>(cost) + l.latency.ps(), std::get<1>(cost) + (l.kind == LinkKind::nvlink ? 0 : 1),
                            std::get<2>(cost) + 1};
      if (s.reached(l.to) && !(next < s.best[l.to])) continue;
      s.relax(l.to, next, static_cast<int32_t>(d));
      if (kinds_[l.to] == NodeKind::gpu) continue;  // a dead end: nothing to expand
      s.heap.push_back({next, l.to});
      std::push_heap(s.heap.begin(), s.heap.end(), std::greater<>());
    }
  }
}

// The route to `dst` from the last search_from(src). Without one: throws PlatformError, or returns
// an empty route when `may_fail`.
Topology::Route Topology::searched_route(int src, int dst, bool may_fail) const {
  const Search& s = search_;
  if (dst == src || !s.reached(dst)) {
    if (may_fail) return {};
    throw PlatformError(fmt::format("no route from {} to {}", names_[src], names_[dst]));
  }
  Route r;
  for (int n = dst; n != src; n = directions_[s.via[n]].from) r.directions.push_back(static_cast<uint32_t>(s.via[n]));
  std::reverse(r.directions.begin(), r.directions.end());
  r.latency = Time::ps(std::get<0>(s.best[dst]));
  return r;
}

void Topology::Search::begin(size_t nodes) {
  if (best.size() != nodes) {
    best.assign(nodes, SearchCost{});
    via.assign(nodes, -1);
    stamp.assign(nodes, 0);
    current = 0;
  }
  if (++current == 0) {  // the stamp wrapped: every entry may look current, so clear them all
    std::fill(stamp.begin(), stamp.end(), 0);
    current = 1;
  }
  heap.clear();
}

void Topology::Search::relax(int node, SearchCost cost, int32_t direction) {
  best[node] = cost;
  via[node] = direction;
  stamp[node] = current;
}

}  // namespace parallax

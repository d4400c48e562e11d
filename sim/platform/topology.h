// File: sim/platform/topology.h
// The machine as a graph: GPUs, hosts and switches as nodes; links as pairs of directions, each
// with a bandwidth and a latency. It answers one question, cached: which link directions does a
// transfer from node A to node B cross, and with what total latency.
//
// Routing rule: the route minimises (total latency, number of non-NVLink hops, number of hops),
// in that order, so NVLink is preferred where an equally fast PCIe path exists. GPUs are endpoints
// only: no route passes *through* a GPU (NVLink bridges do not forward). Hosts and switches do
// forward (two PCIe switches joined through the host's root complex).
//
// Clusters (spec.fabric.nodes > 1): every node is a copy of the box, plus NICs, leaves and one
// aggregate spine (hardware_spec.h FabricSpec). Nothing is tabled per pair of the cluster: routes
// inside a box are searched once per box-local source (Dijkstra over box 0, which never leaves the
// box, to every destination at once) and shifted to the box they are asked for, since every box's
// nodes and link directions are laid out alike; a route between nodes is the source's box route to
// its NIC's PCIe switch, the NIC, the leaf, the spine when the leaves differ, and the mirror image
// on the other side, all by index arithmetic. Node order: all GPUs (node-major), all hosts, all box
// switches, NICs, leaves, spine.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "sim/engine/sim_time.h"
#include "sim/platform/hardware_spec.h"

namespace parallax {

class Topology {
 public:
  struct LinkDirection {
    int from = 0, to = 0;      // node indices
    LinkKind kind = LinkKind::other;
    double bandwidth_Bps = 0;  // capacity of `capacity_group`
    Time latency;
    int capacity_group = 0;    // directions of a half-duplex link share one group
    std::string name;          // "gpu0→nvswitch"
  };
  struct Route {
    std::vector<uint32_t> directions;  // in order from source to destination
    Time latency;
  };

  // Throws PlatformError if a link names an unknown node or a GPU/host cannot reach the rest.
  explicit Topology(const HardwareSpec& spec);

  int node_count() const { return static_cast<int>(names_.size()); }
  int node_index(std::string_view name) const;  // -1 if unknown
  const std::string& node_name(int node) const { return names_[node]; }
  NodeKind node_kind(int node) const { return kinds_[node]; }
  int gpu_node(int gpu) const { return gpu; }  // GPUs are nodes 0..G-1
  int host_node(int host) const { return gpu_count_ + host; }

  const std::vector<LinkDirection>& directions() const { return directions_; }
  int capacity_group_count() const { return capacity_groups_; }

  // The route between two distinct nodes. Box-local routes are cached; routes between nodes are
  // composed from them on each call. Throws PlatformError if there is none.
  Route route(int src, int dst);
  // The same route, its directions written into `directions` (cleared first) and its latency
  // returned: a cluster's copies compose one each, and a buffer kept by the caller spares the
  // allocations (five a route, about half of composing one).
  Time route_into(int src, int dst, std::vector<uint32_t>& directions);

  // Every route between two distinct nodes of one box that shares no capacity group with another
  // (route(src, dst) first, then the best route avoiding the groups taken so far, and so on, at
  // most kMaxPaths): on a bridged pair the NVLink bridge, then PCIe through the switch; between
  // GPUs of different switches PCIe through the root complex. Routes between boxes: route() only.
  // Cached per box-local pair. Throws PlatformError if there is no route at all.
  static constexpr int kMaxPaths = 4;
  std::vector<Route> routes(int src, int dst);

  // Cluster shape: box b of node_box(n), or -1 for a NIC, leaf or spine.
  int nodes() const { return nodes_; }
  int node_box(int node) const;
  bool same_box(int a, int b) const { const int x = node_box(a); return x >= 0 && x == node_box(b); }

 private:
  struct BoxShape {  // one box's counts; box n's items follow box n-1's in each block
    int gpus = 0, hosts = 0, switches = 0, directions = 0, groups = 0;
  };
  std::unordered_map<std::string, int> box0_nodes(const HardwareSpec& spec) const;
  void add_box_links(const HardwareSpec& spec);
  void add_fabric(const HardwareSpec& spec);
  void check_box_connected(const HardwareSpec& spec) const;
  int to_box0(int node) const;          // box-local node in box 0's numbering
  int from_box0(int node0, int box) const;
  Route box_route(int src0, int dst0);  // box 0 numbering, read off trees_
  // box_route()'s directions, each plus `shift` (box b's are box 0's plus b x its directions),
  // appended to `out`; returns its latency.
  Time append_box_route(int src0, int dst0, uint32_t shift, std::vector<uint32_t>& out);
  template <class ViaOf>
  Time append_walk(int src0, int dst0, ViaOf via_of, uint32_t shift, std::vector<uint32_t>& out) const;
  Time append_fabric_route(int src, int dst, std::vector<uint32_t>& out);  // appended; its latency
  int box_slot(int node0) const;  // box 0 node -> 0.. (its GPUs, hosts, switches)
  // One shortest-path search from `src` into search_. `avoid` (optional, one flag per capacity
  // group): groups the routes may not cross. `target` (optional): the one node whose route is
  // wanted; GPUs other than it are left unreached.
  void search_from(int src, bool box_only, const std::vector<char>* avoid, int target = -1);
  Route searched_route(int src, int dst, bool may_fail) const;
  int add_direction(int from, int to, LinkKind kind, double bandwidth_Bps, Time latency, int group);

  int gpu_count_ = 0;
  int nodes_ = 1;
  BoxShape box_;
  int nic_base_ = 0, leaf_base_ = 0, spine_ = -1;  // node indices (fabric only)
  int nics_per_box_ = 0;
  int nodes_per_leaf_ = 1;
  bool rail_ = true;
  uint32_t nic_dir_base_ = 0, spine_dir_base_ = 0;  // direction indices (fabric only)
  std::vector<int> nic_attach0_;  // per NIC: its attach node in box 0's numbering
  std::vector<std::string> names_;
  std::vector<NodeKind> kinds_;
  std::unordered_map<std::string, int> index_;
  std::vector<LinkDirection> directions_;
  std::vector<std::vector<uint32_t>> out_;  // node -> outgoing direction ids
  int capacity_groups_ = 0;
  // search_from()'s working arrays, kept from call to call: a node's best cost and the direction
  // it was reached by count only where its stamp is `current`.
  using SearchCost = std::tuple<int64_t, int, int>;  // latency ps, non-NVLink hops, hops
  struct Search {
    std::vector<SearchCost> best;
    std::vector<int32_t> via;
    std::vector<uint32_t> stamp;
    uint32_t current = 0;
    std::vector<std::pair<SearchCost, int>> heap;  // a min-heap on (cost, node)
    void begin(size_t nodes);
    bool reached(int node) const { return stamp[node] == current; }
    void relax(int node, SearchCost cost, int32_t direction);
  };
  Search search_;
  // Per box-0 source (box_slot), once searched twice: per box_slot, the direction its route
  // arrives by (-1: none). A box's worth of ints per source, where a table of pairs held a vector
  // per pair. searched_: the sources searched once (box_route() says why).
  std::vector<std::vector<int32_t>> trees_;
  std::vector<char> searched_;
  std::unordered_map<uint64_t, std::vector<Route>> disjoint_;  // routes(): box-local pairs, box 0
};

const char* to_string(LinkKind k);
const char* to_string(NodeKind k);

}  // namespace parallax

// File: sim/platform/topology.h
// The machine as a graph: GPUs, hosts and switches as nodes; links as pairs of directions, each
// with a bandwidth and a latency. It answers one question, cached: which link directions does a
// transfer from node A to node B cross, and with what total latency.
//
// Routing rule: the route minimises (total latency, number of non-NVLink hops, number of hops),
// in that order, so NVLink is preferred where an equally fast PCIe path exists. GPUs are endpoints
// only: no route passes *through* a GPU (NVLink bridges do not forward). Hosts and switches do
// forward (two PCIe switches joined through the host's root complex).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
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

  // The route between two distinct nodes (cached). Throws PlatformError if there is none.
  const Route& route(int src, int dst);

 private:
  Route compute_route(int src, int dst) const;

  int gpu_count_ = 0;
  std::vector<std::string> names_;
  std::vector<NodeKind> kinds_;
  std::unordered_map<std::string, int> index_;
  std::vector<LinkDirection> directions_;
  std::vector<std::vector<uint32_t>> out_;  // node -> outgoing direction ids
  int capacity_groups_ = 0;
  std::unordered_map<uint64_t, Route> routes_;
};

const char* to_string(LinkKind k);
const char* to_string(NodeKind k);

}  // namespace parallax

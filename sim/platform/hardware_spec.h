// File: sim/platform/hardware_spec.h
// Plain data describing a machine: GPUs, hosts, switches and the links between them. The scenario
// loader fills it from a preset YAML (scenarios/hardware/*.yaml) plus inline overrides; SimPlatform
// builds its topology and capacities from it. Units are in the field names.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parallax {

// The GEMM efficiency curve of models/gemm_cost.h as fitted by `parallax fit` and set by a
// scenario's `calibration:` key (docs/calibration.md).
struct GemmEfficiency {
  int64_t tile_m = 128;
  int64_t tile_n = 128;
  double eta_max = 0.75;
  double k_half = 256.0;
  double eta_mem = 0.8;
  double overhead_s = 5e-6;
};

struct GpuSpec {
  std::string model;             // e.g. "H100-SXM5"
  int sms = 0;                   // streaming multiprocessors
  double peak_flops = 0;         // dense bf16/fp16 tensor FLOP/s of the whole GPU
  double hbm_Bps = 0;            // device-memory bandwidth, bytes/s
  int64_t memory_bytes = 0;      // device-memory capacity
  int copy_engines = 2;          // concurrent DMA copies; each direction is one constraint
  double copy_engine_Bps = 0;    // per copy engine (one copy uses one); 0 = unbounded (the link decides)
  double kernel_launch_s = 0;    // fixed delay before a kernel starts
  double bw_per_sm_Bps = 0;      // DRAM bandwidth one SM can draw: a kernel on s SMs moves at most
                                 // s·bw_per_SM (models/kernel_time.h); the reader sets 2·HBM/SMs
                                 // when a description leaves it out
  double kernel_smoothing_p = 0; // p of T = (T_comp^p + T_mem^p)^(1/p) (models/kernel_time.h); 0 = ∞,
                                 // the plain roofline max
  std::optional<GemmEfficiency> gemm;  // calibrated; absent: overlap_gpu_params' defaults
};

enum class NodeKind { gpu, host, pcie_switch, nvswitch, nic, network_switch };
enum class LinkKind { nvlink, pcie, network, other };

struct NodeSpec {
  std::string name;  // unique; GPUs are "gpu<i>", hosts "host<i>" (or "host" for the only one)
  NodeKind kind = NodeKind::network_switch;
};

struct LinkSpec {
  std::string a, b;           // node names
  LinkKind kind = LinkKind::other;
  double bandwidth_Bps = 0;   // per direction when full duplex; total when half duplex
  double latency_s = 0;       // pure delay added to a route's latency
  bool full_duplex = true;    // each direction has its own capacity
};

struct HostSpec {
  int64_t memory_bytes = 0;
};

// Scale-out: `nodes` copies of the box (gpus/hosts/switches/links above describe ONE box) joined
// through NICs and a leaf/spine network (REFERENCE.md §1.6). nodes == 1 means no fabric: the box
// alone, as before. Nodes are cut into groups of `nodes_per_leaf` (0 = one group of all nodes).
// Rail-optimized: NIC i of every node of a group attaches to that group's leaf of rail i, so
// same-rank traffic within a group crosses one leaf; leaf_spine: every NIC of a group's nodes is on
// the group's one leaf. Leaves reach each other through the spine layer, modelled as one
// aggregate switch whose link to each leaf carries the leaf's downlink capacity divided by
// `oversubscription` (1 = non-blocking): ECMP spreading assumed perfect. Global GPU ids are
// node-major: GPU l of node n is n * gpus.size() + l (hosts likewise).
struct NicSpec {
  std::string attach;          // box node the NIC hangs off (its PCIe switch: the GPUDirect RDMA path)
  double bandwidth_Bps = 0;    // per direction
  double latency_s = 0;        // NIC + cable, added once per NIC crossed
};

// Which NIC a box-local GPU sends and receives through: with as many NICs as GPUs, its own (NIC l
// for GPU l, NCCL's rail matching); otherwise GPU l uses NIC l * nics / gpus.
inline int nic_of_gpu(int local_gpu, int box_gpus, int nics) {
  return nics == box_gpus ? local_gpu : static_cast<int>(int64_t{local_gpu} * nics / box_gpus);
}

struct FabricSpec {
  enum class Shape : uint8_t { rail_optimized, leaf_spine };
  int nodes = 1;
  Shape shape = Shape::rail_optimized;
  std::vector<NicSpec> nics;        // per box; a preset keeps its cluster's here, unused while nodes == 1
  int nodes_per_leaf = 0;           // nodes per leaf group (both shapes); 0 = one group of all nodes
  double oversubscription = 1.0;    // leaf downlink : uplink capacity
  double switch_latency_s = 0;      // per network switch crossed
  std::vector<std::string> sources; // where the figures come from
};

struct HardwareSpec {
  std::string name;                 // preset name, e.g. "dgx-h100"
  std::string description;
  std::vector<std::string> sources; // where each figure comes from (REFERENCE.md sections, URLs)
  std::vector<GpuSpec> gpus;        // index = GPU id; node name "gpu<i>"
  std::vector<HostSpec> hosts;      // index = host id; node name "host<i>"
  std::vector<NodeSpec> switches;   // every node that is neither a GPU nor a host
  std::vector<LinkSpec> links;
  FabricSpec fabric;                // scale-out across boxes; nodes == 1: a single box
};

// GPUs and hosts of the whole cluster (all nodes), for sizing and id checks.
inline int cluster_gpu_count(const HardwareSpec& spec) { return static_cast<int>(spec.gpus.size()) * spec.fabric.nodes; }
inline int cluster_host_count(const HardwareSpec& spec) { return static_cast<int>(spec.hosts.size()) * spec.fabric.nodes; }
// The figures of a cluster GPU (every node is a copy of the box).
inline const GpuSpec& cluster_gpu(const HardwareSpec& spec, int gpu) { return spec.gpus[static_cast<size_t>(gpu) % spec.gpus.size()]; }

// Node names of GPUs and hosts, in one place.
inline std::string gpu_node_name(int i) { return "gpu" + std::to_string(i); }
inline std::string host_node_name(int i) { return "host" + std::to_string(i); }

}  // namespace parallax

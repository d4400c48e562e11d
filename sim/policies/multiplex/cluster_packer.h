// File: sim/policies/multiplex/cluster_packer.h
// Places pods that ask for (fractions of) GPUs onto the nodes of a cluster, under one of three
// sharing schemes, and takes them off again. The state is what a scheduler would see; the replay
// over time and its metrics are in cluster_packing_replay.h.
//
// Schemes (docs/multiplex.md §Cluster packing):
//   exclusive  every GPU pod gets whole GPUs (a 0.3-GPU pod holds one GPU alone).
//   mig        a fractional pod (gpu_milli < 1000) gets the smallest MIG profile of `mig_geometry`
//              with compute_slices/7 >= gpu_milli/1000 and memory_slices/8 >= gpu_milli/1000, at a
//              legal start beside the instances already on that GPU (instances are never moved: a
//              running instance cannot be re-created). Whole-GPU pods get the full profile. Every
//              GPU's instance list passes check_mig_layout (sim/platform/mig_layout.h).
//   elastic    fractional sharing at gpu_milli granularity: a GPU takes pods while the sum of their
//              gpu_milli stays <= 1000 (what elastic SM/bandwidth shares can honour, docs/multiplex.md).
// In every scheme a pod with num_gpu = k > 1 takes k idle GPUs of one node, and every pod needs its
// cpu_milli and memory_mib free on the node and a node model in its gpu_spec (if any).
//
// Choice (the same rule for every scheme, so only the granularity differs): best fit. A fractional
// pod goes to the GPU whose free capacity after placing it is smallest (elastic: milli; mig:
// compute slices; exclusive: an idle GPU on the node with the fewest idle GPUs); whole-GPU pods to
// the node with the fewest idle GPUs that holds enough; CPU-only pods to the first node with room,
// nodes without GPUs first. Ties go to the lowest node, then GPU, then MIG start: deterministic.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/platform/mig_layout.h"

namespace parallax {

// A pod as the packer sees it: what it asks of one node and, in a timed replay, when it comes and
// goes. Trace rows (sim/workload/alibaba_gpu_trace.h) become these at the caller.
struct PodRequest {
  uint64_t cpu_milli = 0;
  uint64_t memory_mib = 0;
  int num_gpu = 0;
  int gpu_milli = 0;                   // per GPU; 1000 = a whole GPU
  std::vector<std::string> gpu_spec;   // allowed GPU models; empty = any
  bool has_times = false;              // creation_s and deletion_s are known
  int64_t creation_s = 0;
  int64_t deletion_s = 0;
};

// A node of the cluster: its CPU, memory and GPUs (all of one model).
struct ClusterNode {
  uint64_t cpu_milli = 0;
  uint64_t memory_mib = 0;
  int gpus = 0;
  std::string model;                   // "" when gpus == 0
};

enum class PackingScheme { exclusive, mig, elastic };

// "exclusive", "mig", "elastic"; std::invalid_argument otherwise.
PackingScheme packing_scheme_from_name(const std::string& name);

struct PackedGpu {
  int node = 0;
  int requested_milli = 0;            // sum of the pods' gpu_milli on this GPU
  int pods = 0;
  std::vector<MigPlacement> mig;      // mig scheme: the instances, in creation order
  int mig_compute_slices = 0;
  uint32_t mig_memory_mask = 0;       // bit s = memory slice s in use
};

struct PackedNode {
  uint64_t cpu_free_milli = 0;
  uint64_t memory_free_mib = 0;
  std::string model;
  int first_gpu = 0;                  // index into ClusterPacker::gpus()
  int gpus = 0;
};

// Where one pod went; what remove() needs to undo it.
struct PodPlacement {
  int node = -1;
  std::vector<int> gpus;              // indices into gpus()
  std::vector<int> mig_starts;        // mig scheme, one per GPU
};

class ClusterPacker {
 public:
  // `mig_geometry` is required for PackingScheme::mig (std::invalid_argument otherwise) and must
  // outlive the packer.
  ClusterPacker(std::span<const ClusterNode> nodes, PackingScheme scheme, const GpuPartitioning* mig_geometry);

  // Places the pod or returns nothing (the state is then unchanged).
  std::optional<PodPlacement> place(const PodRequest& pod);
  void remove(const PodRequest& pod, const PodPlacement& where);

  // The MIG profile a pod of `gpu_milli` gets (mig scheme); nullptr if none is large enough.
  const MigProfile* mig_profile_for(int gpu_milli) const;

  const std::vector<PackedGpu>& gpus() const { return gpus_; }
  const std::vector<PackedNode>& nodes() const { return nodes_; }
  int occupied_gpus() const { return occupied_; }
  int64_t requested_milli() const { return requested_; }
  // The capacity of a GPU a pod of this model may use that no pod has requested, summed over the
  // cluster (1000 per idle GPU); what a perfectly divisible GPU would still offer.
  int64_t free_requested_capacity(const PodRequest& pod) const;

 private:
  bool node_fits(const PodRequest& pod, const PackedNode& n) const;
  int idle_gpus(const PackedNode& n) const;
  std::optional<PodPlacement> place_whole(const PodRequest& pod, int gpus_wanted);
  std::optional<PodPlacement> place_fraction(const PodRequest& pod);
  std::optional<PodPlacement> place_cpu_only(const PodRequest& pod);
  // A legal start for `p` beside the instances on `g`, or -1 (cheap checks, in the validator's terms).
  int mig_start_for(const PackedGpu& g, const MigProfile& p) const;
  void commit(const PodRequest& pod, PodPlacement& where, const MigProfile* profile);

  PackingScheme scheme_;
  const GpuPartitioning* mig_ = nullptr;
  const MigProfile* mig_whole_ = nullptr;
  std::vector<PackedNode> nodes_;
  std::vector<PackedGpu> gpus_;
  int occupied_ = 0;
  int64_t requested_ = 0;
};

}  // namespace parallax

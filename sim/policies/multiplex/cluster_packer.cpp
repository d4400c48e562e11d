// File: sim/policies/multiplex/cluster_packer.cpp
#include "sim/policies/multiplex/cluster_packer.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace parallax {

PackingScheme packing_scheme_from_name(const std::string& name) {
  if (name == "exclusive") return PackingScheme::exclusive;
  if (name == "mig") return PackingScheme::mig;
  if (name == "elastic") return PackingScheme::elastic;
  throw std::invalid_argument(fmt::format("unknown packing scheme '{}'", name));
}

ClusterPacker::ClusterPacker(std::span<const ClusterNode> nodes, PackingScheme scheme,
                             const GpuPartitioning* mig_geometry)
    : scheme_(scheme), mig_(mig_geometry) {
  if (scheme_ == PackingScheme::mig) {
    if (mig_ == nullptr) throw std::invalid_argument("the mig packing scheme needs a MIG geometry");
    for (const MigProfile& p : mig_->profiles)
      if (p.compute_slices == mig_->mig_compute_slices && p.memory_slices == mig_->mig_memory_slices) mig_whole_ = &p;
    if (mig_whole_ == nullptr || mig_->mig_memory_slices > 32)
      throw std::invalid_argument(fmt::format("{}: no full-GPU MIG profile", mig_->name));
  }
  for (const ClusterNode& n : nodes) {
    nodes_.push_back({n.cpu_milli, n.memory_mib, n.model, static_cast<int>(gpus_.size()), n.gpus});
    PackedGpu gpu;
    gpu.node = static_cast<int>(nodes_.size()) - 1;
    gpus_.insert(gpus_.end(), static_cast<size_t>(n.gpus), gpu);
  }
}

const MigProfile* ClusterPacker::mig_profile_for(int gpu_milli) const {
  if (gpu_milli >= 1000) return mig_whole_;
  const MigProfile* best = nullptr;
  for (const MigProfile& p : mig_->profiles) {
    // integer form of compute_slices/C >= milli/1000 and memory_slices/M >= milli/1000
    if (int64_t{p.compute_slices} * 1000 < int64_t{gpu_milli} * mig_->mig_compute_slices) continue;
    if (int64_t{p.memory_slices} * 1000 < int64_t{gpu_milli} * mig_->mig_memory_slices) continue;
    if (best == nullptr || p.compute_slices < best->compute_slices ||
        (p.compute_slices == best->compute_slices && p.memory_slices < best->memory_slices))
      best = &p;
  }
  return best;
}

bool ClusterPacker::node_fits(const PodRequest& pod, const PackedNode& n) const {
  if (n.cpu_free_milli < pod.cpu_milli || n.memory_free_mib < pod.memory_mib) return false;
  if (pod.num_gpu == 0 || pod.gpu_spec.empty()) return true;
  return std::find(pod.gpu_spec.begin(), pod.gpu_spec.end(), n.model) != pod.gpu_spec.end();
}

int ClusterPacker::idle_gpus(const PackedNode& n) const {
  int idle = 0;
  for (int g = n.first_gpu; g < n.first_gpu + n.gpus; ++g) idle += gpus_[static_cast<size_t>(g)].pods == 0;
  return idle;
}

int ClusterPacker::mig_start_for(const PackedGpu& g, const MigProfile& p) const {
  if (static_cast<int>(g.mig.size()) + 1 > mig_->mig_max_instances) return -1;
  if (g.mig_compute_slices + p.compute_slices > mig_->mig_compute_slices) return -1;
  int same = 0;
  for (const MigPlacement& m : g.mig) same += m.profile == p.name;
  if (same + 1 > p.max_instances) return -1;
  for (int s : p.starts) {
    if (s < 0 || s + p.memory_slices > mig_->mig_memory_slices) continue;
    const uint32_t mask = ((uint32_t{1} << p.memory_slices) - 1) << s;
    if ((g.mig_memory_mask & mask) == 0) return s;
  }
  return -1;
}

std::optional<PodPlacement> ClusterPacker::place(const PodRequest& pod) {
  if (pod.num_gpu == 0) return place_cpu_only(pod);
  if (pod.num_gpu > 1 || pod.gpu_milli >= 1000 || scheme_ == PackingScheme::exclusive)
    return place_whole(pod, pod.num_gpu);
  return place_fraction(pod);
}

std::optional<PodPlacement> ClusterPacker::place_cpu_only(const PodRequest& pod) {
  for (int pass = 0; pass < 2; ++pass)
    for (size_t i = 0; i < nodes_.size(); ++i) {
      if ((nodes_[i].gpus == 0) != (pass == 0) || !node_fits(pod, nodes_[i])) continue;
      PodPlacement where;
      where.node = static_cast<int>(i);
      commit(pod, where, nullptr);
      return where;
    }
  return std::nullopt;
}

std::optional<PodPlacement> ClusterPacker::place_whole(const PodRequest& pod, int gpus_wanted) {
  int best = -1, best_idle = std::numeric_limits<int>::max();
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const PackedNode& n = nodes_[i];
    if (n.gpus < gpus_wanted || !node_fits(pod, n)) continue;
    const int idle = idle_gpus(n);
    if (idle >= gpus_wanted && idle < best_idle) best = static_cast<int>(i), best_idle = idle;
  }
  if (best < 0) return std::nullopt;
  PodPlacement where;
  where.node = best;
  const PackedNode& n = nodes_[static_cast<size_t>(best)];
  for (int g = n.first_gpu; g < n.first_gpu + n.gpus && static_cast<int>(where.gpus.size()) < gpus_wanted; ++g)
    if (gpus_[static_cast<size_t>(g)].pods == 0) where.gpus.push_back(g);
  commit(pod, where, scheme_ == PackingScheme::mig ? mig_whole_ : nullptr);
  return where;
}

std::optional<PodPlacement> ClusterPacker::place_fraction(const PodRequest& pod) {
  const MigProfile* profile = scheme_ == PackingScheme::mig ? mig_profile_for(pod.gpu_milli) : nullptr;
  if (scheme_ == PackingScheme::mig && profile == nullptr) return std::nullopt;
  int best = -1, best_start = -1;
  int64_t best_left = std::numeric_limits<int64_t>::max();
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const PackedNode& n = nodes_[i];
    if (n.gpus == 0 || !node_fits(pod, n)) continue;
    for (int g = n.first_gpu; g < n.first_gpu + n.gpus; ++g) {
      const PackedGpu& gpu = gpus_[static_cast<size_t>(g)];
      int64_t left = 0;
      int start = -1;
      if (profile != nullptr) {
        start = mig_start_for(gpu, *profile);
        if (start < 0) continue;
        left = mig_->mig_compute_slices - gpu.mig_compute_slices - profile->compute_slices;
      } else {
        left = 1000 - gpu.requested_milli - pod.gpu_milli;
        if (left < 0) continue;
      }
      if (left < best_left) best = g, best_left = left, best_start = start;
    }
  }
  if (best < 0) return std::nullopt;
  PodPlacement where;
  where.node = gpus_[static_cast<size_t>(best)].node;
  where.gpus.push_back(best);
  if (profile != nullptr) where.mig_starts.push_back(best_start);
  commit(pod, where, profile);
  return where;
}

void ClusterPacker::commit(const PodRequest& pod, PodPlacement& where, const MigProfile* profile) {
  PackedNode& n = nodes_[static_cast<size_t>(where.node)];
  n.cpu_free_milli -= pod.cpu_milli;
  n.memory_free_mib -= pod.memory_mib;
  for (size_t k = 0; k < where.gpus.size(); ++k) {
    PackedGpu& g = gpus_[static_cast<size_t>(where.gpus[k])];
    if (profile != nullptr) {
      if (where.mig_starts.size() <= k) where.mig_starts.push_back(0);  // a whole GPU: the full profile at 0
      g.mig.push_back({profile->name, where.mig_starts[k]});
      // The cheap checks above speak for the validator; it has the last word.
      (void)check_mig_layout(*mig_, g.mig);
      g.mig_compute_slices += profile->compute_slices;
      g.mig_memory_mask |= ((uint32_t{1} << profile->memory_slices) - 1) << where.mig_starts[k];
    }
    occupied_ += g.pods == 0;
    ++g.pods;
    g.requested_milli += pod.gpu_milli;
    requested_ += pod.gpu_milli;
    if (g.requested_milli > 1000)
      throw std::logic_error(fmt::format("GPU {} holds {} milli", where.gpus[k], g.requested_milli));
  }
}

void ClusterPacker::remove(const PodRequest& pod, const PodPlacement& where) {
  PackedNode& n = nodes_[static_cast<size_t>(where.node)];
  n.cpu_free_milli += pod.cpu_milli;
  n.memory_free_mib += pod.memory_mib;
  for (size_t k = 0; k < where.gpus.size(); ++k) {
    PackedGpu& g = gpus_[static_cast<size_t>(where.gpus[k])];
    if (!where.mig_starts.empty()) {
      const auto it = std::find_if(g.mig.begin(), g.mig.end(),
                                   [&](const MigPlacement& m) { return m.start == where.mig_starts[k]; });
      if (it == g.mig.end()) throw std::logic_error("removing a MIG instance that is not there");
      const MigProfile* p = mig_->find_profile(it->profile);
      g.mig_compute_slices -= p->compute_slices;
      g.mig_memory_mask &= ~(((uint32_t{1} << p->memory_slices) - 1) << it->start);
      g.mig.erase(it);
    }
    --g.pods;
    occupied_ -= g.pods == 0;
    g.requested_milli -= pod.gpu_milli;
    requested_ -= pod.gpu_milli;
  }
}

int64_t ClusterPacker::free_requested_capacity(const PodRequest& pod) const {
  int64_t free = 0;
  for (const PackedNode& n : nodes_) {
    if (n.gpus == 0) continue;
    if (!pod.gpu_spec.empty() && std::find(pod.gpu_spec.begin(), pod.gpu_spec.end(), n.model) == pod.gpu_spec.end())
      continue;
    for (int g = n.first_gpu; g < n.first_gpu + n.gpus; ++g) free += 1000 - gpus_[static_cast<size_t>(g)].requested_milli;
  }
  return free;
}

}  // namespace parallax

// File: sim/policies/serverless/model_residency.h
// Where each function's model lives: per (function, GPU) absent, loading or resident, with its
// last use, whether it is running, and how many NVLink swaps are reading it (a swap source is
// locked against eviction, torpor evictor.hpp). The host copy is always kept, so eviction only
// forgets the GPU copy. Plain bookkeeping; the node changes it, the evictor and selector read it.
// Each GPU's resident models are also kept ordered by (last use, function), so that the evictor
// walks the few models a GPU holds in LRU order instead of scanning every function.
#pragma once

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "sim/engine/sim_time.h"

namespace parallax {

enum class Residency : uint8_t { absent, loading, resident };

struct ResidencyEntry {
  Residency state = Residency::absent;
  Time last_use;
  int32_t readers = 0;  // in-flight swaps copying from this replica
  bool running = false;
};

class ModelResidency {
 public:
  using ByUse = std::set<std::pair<Time, uint32_t>>;  // (last use, function)

  ModelResidency(int functions, int gpus)
      : gpus_(gpus), entries_(static_cast<size_t>(functions) * static_cast<size_t>(gpus)), resident_(static_cast<size_t>(gpus)) {}
  int gpus() const { return gpus_; }
  int functions() const { return static_cast<int>(entries_.size() / static_cast<size_t>(gpus_)); }
  const ResidencyEntry& at(uint32_t function, int gpu) const { return entries_[index(function, gpu)]; }

  void set_state(uint32_t function, int gpu, Residency state) {
    ResidencyEntry& e = entries_[index(function, gpu)];
    if (e.state == state) return;
    ByUse& held = resident_[static_cast<size_t>(gpu)];
    if (e.state == Residency::resident) held.erase({e.last_use, function});
    e.state = state;
    if (state == Residency::resident) held.insert({e.last_use, function});
  }
  void set_last_use(uint32_t function, int gpu, Time at) {
    ResidencyEntry& e = entries_[index(function, gpu)];
    if (e.state == Residency::resident) {
      ByUse& held = resident_[static_cast<size_t>(gpu)];
      held.erase({e.last_use, function});
      held.insert({at, function});
    }
    e.last_use = at;
  }
  void set_running(uint32_t function, int gpu, bool running) { entries_[index(function, gpu)].running = running; }
  void add_reader(uint32_t function, int gpu, int32_t delta) { entries_[index(function, gpu)].readers += delta; }

  // The GPU's resident models, least recently used first (ties: lowest function).
  const ByUse& resident_by_use(int gpu) const { return resident_[static_cast<size_t>(gpu)]; }

  // Resident or loading copies of the function (loading ones count as replicas for the evictor).
  int replicas(uint32_t function) const {
    int n = 0;
    for (int g = 0; g < gpus_; ++g) n += at(function, g).state != Residency::absent ? 1 : 0;
    return n;
  }
  bool evictable(uint32_t function, int gpu) const {
    const ResidencyEntry& e = at(function, gpu);
    return e.state == Residency::resident && !e.running && e.readers == 0;
  }

 private:
  size_t index(uint32_t function, int gpu) const { return function * static_cast<size_t>(gpus_) + static_cast<size_t>(gpu); }

  int gpus_;
  std::vector<ResidencyEntry> entries_;
  std::vector<ByUse> resident_;  // per GPU
};

}  // namespace parallax

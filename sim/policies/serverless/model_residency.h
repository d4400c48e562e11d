// File: sim/policies/serverless/model_residency.h
// Where each function's model lives: per (function, GPU) absent, loading or resident, with its
// last use, whether it is running, and how many NVLink swaps are reading it (a swap source is
// locked against eviction, torpor evictor.hpp). The host copy is always kept, so eviction only
// forgets the GPU copy. Plain bookkeeping; the node changes it, the evictor and selector read it.
//
// Each GPU's resident models are also linked in (last use, function) order, so that the evictor
// walks the few models a GPU holds, least recently used first, instead of scanning every
// function; and each function's replica count is kept, so that holds/replicas cost O(1). A model
// becomes resident or is used at the current time, so it goes to (or near) the tail: O(1).
#pragma once

#include <cstdint>
#include <tuple>
#include <vector>

#include "sim/engine/sim_time.h"

namespace parallax {

enum class Residency : uint8_t { absent, loading, resident };

struct ResidencyEntry {
  Residency state = Residency::absent;
  bool running = false;
  int32_t readers = 0;  // in-flight swaps copying from this replica
  Time last_use;
  uint32_t older = 0, newer = 0;  // neighbours in the GPU's LRU list (ModelResidency::kNone: none)
};

class ModelResidency {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  ModelResidency(int functions, int gpus)
      : gpus_(gpus),
        entries_(static_cast<size_t>(functions) * static_cast<size_t>(gpus)),
        replicas_(static_cast<size_t>(functions), 0),
        oldest_(static_cast<size_t>(gpus), kNone),
        newest_(static_cast<size_t>(gpus), kNone) {}
  int gpus() const { return gpus_; }
  int functions() const { return static_cast<int>(replicas_.size()); }
  const ResidencyEntry& at(uint32_t function, int gpu) const { return entries_[index(function, gpu)]; }

  void set_state(uint32_t function, int gpu, Residency state) {
    ResidencyEntry& e = entries_[index(function, gpu)];
    if (e.state == state) return;
    if (e.state == Residency::resident) unlink(function, gpu);
    replicas_[function] += (state != Residency::absent ? 1 : 0) - (e.state != Residency::absent ? 1 : 0);
    e.state = state;
    if (state == Residency::resident) link(function, gpu);
  }
  void set_last_use(uint32_t function, int gpu, Time at) {
    ResidencyEntry& e = entries_[index(function, gpu)];
    const bool listed = e.state == Residency::resident;
    if (listed) unlink(function, gpu);
    e.last_use = at;
    if (listed) link(function, gpu);
  }
  void set_running(uint32_t function, int gpu, bool running) { entries_[index(function, gpu)].running = running; }
  void add_reader(uint32_t function, int gpu, int32_t delta) { entries_[index(function, gpu)].readers += delta; }

  // The GPU's resident models, least recently used first (ties: lowest function): start at
  // oldest(gpu), follow newer_than() until kNone.
  uint32_t oldest(int gpu) const { return oldest_[static_cast<size_t>(gpu)]; }
  uint32_t newer_than(uint32_t function, int gpu) const { return at(function, gpu).newer; }

  // Resident or loading copies of the function (loading ones count as replicas for the evictor).
  int replicas(uint32_t function) const { return replicas_[function]; }
  bool evictable(uint32_t function, int gpu) const {
    const ResidencyEntry& e = at(function, gpu);
    return e.state == Residency::resident && !e.running && e.readers == 0;
  }

 private:
  size_t index(uint32_t function, int gpu) const { return function * static_cast<size_t>(gpus_) + static_cast<size_t>(gpu); }
  bool before(uint32_t a, uint32_t b, int gpu) const {
    return std::tie(at(a, gpu).last_use, a) < std::tie(at(b, gpu).last_use, b);
  }
  // Inserts from the tail: the new entry's last use is the latest but for ties.
  void link(uint32_t function, int gpu) {
    const auto g = static_cast<size_t>(gpu);
    uint32_t prev = newest_[g];
    while (prev != kNone && before(function, prev, gpu)) prev = at(prev, gpu).older;
    ResidencyEntry& e = entries_[index(function, gpu)];
    e.older = prev;
    e.newer = prev == kNone ? oldest_[g] : at(prev, gpu).newer;
    (prev == kNone ? oldest_[g] : entries_[index(prev, gpu)].newer) = function;
    (e.newer == kNone ? newest_[g] : entries_[index(e.newer, gpu)].older) = function;
  }
  void unlink(uint32_t function, int gpu) {
    const auto g = static_cast<size_t>(gpu);
    const ResidencyEntry& e = at(function, gpu);
    (e.older == kNone ? oldest_[g] : entries_[index(e.older, gpu)].newer) = e.newer;
    (e.newer == kNone ? newest_[g] : entries_[index(e.newer, gpu)].older) = e.older;
  }

  int gpus_;
  std::vector<ResidencyEntry> entries_;
  std::vector<int32_t> replicas_;  // per function
  std::vector<uint32_t> oldest_, newest_;  // per GPU: the LRU list's ends
};

}  // namespace parallax

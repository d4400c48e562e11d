// File: sim/policies/serverless/model_residency.h
// Where each function's model lives: per (function, GPU) absent, loading or resident, with its
// last use, whether it is running, and how many NVLink swaps are reading it (a swap source is
// locked against eviction, torpor evictor.hpp). The host copy is always kept, so eviction only
// forgets the GPU copy. Plain bookkeeping; the node changes it, the evictor and selector read it.
#pragma once

#include <cstdint>
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
  ModelResidency(int functions, int gpus) : gpus_(gpus), entries_(static_cast<size_t>(functions * gpus)) {}
  int gpus() const { return gpus_; }
  int functions() const { return static_cast<int>(entries_.size()) / gpus_; }
  ResidencyEntry& at(uint32_t function, int gpu) { return entries_[function * static_cast<size_t>(gpus_) + static_cast<size_t>(gpu)]; }
  const ResidencyEntry& at(uint32_t function, int gpu) const {
    return entries_[function * static_cast<size_t>(gpus_) + static_cast<size_t>(gpu)];
  }
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
  int gpus_;
  std::vector<ResidencyEntry> entries_;
};

}  // namespace parallax

// File: sim/policies/serverless/gpu_selector.h
// Which idle GPU serves a request and where its model comes from.
//  * torpor (Torpor Algorithm 1, §5.3; torpor controller.hpp): an idle GPU holding the model runs
//    it locally; else, if some GPU holds it, the (idle GPU, holder) pair with the fastest NVLink
//    swaps it GPU->GPU; else an idle GPU loads it from the host, preferring one whose PCIe-switch
//    sibling is least busy in the order idle < run local < run after NVLink swap < PCIe-loading a
//    light < median < heavy model. Remaining ties: least busy time so far, then lowest index.
//  * random (Torpor's RAND ablation, the naive baseline): local if possible, else a uniformly
//    random idle GPU loads from the host; never NVLink.
#pragma once

#include <cstdint>
#include <span>

#include "sim/engine/random_streams.h"
#include "sim/policies/serverless/model_residency.h"
#include "sim/policies/serverless/served_model.h"
#include "sim/policies/serverless/swap_executor.h"

namespace parallax {

enum class SelectorKind : uint8_t { torpor, random };

// What a GPU is doing, in Torpor's status order (lower = a better sibling for a PCIe load).
enum class GpuActivity : uint8_t { idle, run_local, run_nvlink, pcie_light, pcie_median, pcie_heavy };

struct Placement {
  bool found = false;
  int gpu = -1;
  SwapSource source = SwapSource::none;
  int peer = -1;  // source GPU when source == peer
};

struct SelectionInput {
  uint32_t function = 0;
  const ModelResidency* residency = nullptr;
  std::span<const GpuActivity> activity;  // per GPU; idle = available
  std::span<const double> busy_s;         // per GPU, time spent serving so far
  const NodeLinks* links = nullptr;
};

Placement select_gpu(SelectorKind kind, const SelectionInput& in, RandomStream& rng);

}  // namespace parallax

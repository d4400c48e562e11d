// File: sim/policies/serverless/served_model.h
// What the serverless policies know about functions and the node, handed to them by whoever
// builds the simulation (sim/experiment/serverless_experiment.cpp from the model catalog and the topology; a
// hardware backend from its own probe): per function its model's layers on this node's GPUs, its
// SLO and its native footprint; per GPU pair the NVLink bandwidth and per GPU its PCIe-switch
// sibling (torpor controller.hpp keeps the same two tables).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/swap_cost.h"
#include "sim/engine/sim_time.h"

namespace parallax {

enum class ModelClass : uint8_t { light, median, heavy };  // Torpor's heaviness

struct ServedModel {
  std::string name;
  ModelClass heaviness = ModelClass::light;
  std::vector<models::SwapLayer> layers;  // first-use order, compute on this node's GPUs
  int64_t param_bytes = 0;
  double compute_s = 0;                   // sum of layers (run under Torpor's runtime)
  double native_s = 0;                    // PyTorch-native latency (native and keep-alive baselines)
  int64_t native_footprint_bytes = 0;     // GPU memory of one native function instance
  Time slo;
  Time cold_start;                        // keep-alive baseline: container start; 0 = the policy's
  // Per layer, the group holding its last byte (models::swap_layer_groups at the node's group
  // size); filled by the node, computed by the executor when empty.
  std::vector<int64_t> layer_group;
};

struct ServedFunction {
  std::string name;
  uint32_t model = 0;  // index into the models vector
};

// One route a model can be loaded over, as the platform runs a lone copy on it: the bottleneck
// rate, the route latency and the link directions it crosses (two loads whose directions meet
// contend, and go to the platform's flow solver; a lone load is computed in closed form).
struct RouteCost {
  double Bps = 0;
  Time latency;
  std::vector<uint32_t> directions;
};

struct NodeLinks {
  std::vector<std::vector<double>> peer_Bps;  // [a][b] NVLink line rate, 0 = none
  std::vector<int> pcie_sibling;              // GPU sharing a's PCIe switch, -1 = none
  int host = 0;                               // host holding the model repository
  // [source][gpu]: source < gpus is a peer GPU, source == gpus the host. Empty: every load goes
  // through the platform's solver.
  std::vector<std::vector<RouteCost>> routes;
  const RouteCost* route(int source, int gpu) const {
    if (source < 0 || static_cast<size_t>(source) >= routes.size()) return nullptr;
    const auto& row = routes[static_cast<size_t>(source)];
    return static_cast<size_t>(gpu) < row.size() && row[static_cast<size_t>(gpu)].Bps > 0 ? &row[static_cast<size_t>(gpu)] : nullptr;
  }
};

// True when two routes cross a common link direction (directions sorted).
inline bool routes_share(const RouteCost& a, const RouteCost& b) {
  size_t i = 0, j = 0;
  while (i < a.directions.size() && j < b.directions.size()) {
    if (a.directions[i] == b.directions[j]) return true;
    if (a.directions[i] < b.directions[j]) ++i; else ++j;
  }
  return false;
}

}  // namespace parallax

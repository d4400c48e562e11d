// File: sim/policies/serverless/served_model.h
// What the serverless policies know about functions and the node, handed to them by whoever
// builds the simulation (tools/run_serverless.cpp from the model catalog and the topology; a
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
};

struct ServedFunction {
  std::string name;
  uint32_t model = 0;  // index into the models vector
};

struct NodeLinks {
  std::vector<std::vector<double>> peer_Bps;  // [a][b] NVLink line rate, 0 = none
  std::vector<int> pcie_sibling;              // GPU sharing a's PCIe switch, -1 = none
  int host = 0;                               // host holding the model repository
};

}  // namespace parallax

// File: sim/experiment/serverless_sim.h
// One serverless simulation: `nodes` copies of a machine on one engine, each a ServerlessNode
// under one policy; one node replays the arrivals itself, several sit behind the cluster router
// (sim/policies/serverless/serverless_cluster.h). Shared by `parallax run` (run_serverless.cpp)
// and `parallax bench serverless` (bench_serverless.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "sim/engine/engine.h"
#include "sim/platform/hardware_spec.h"
#include "sim/policies/serverless/catalog_models.h"
#include "sim/policies/serverless/serverless_cluster.h"
#include "sim/policies/serverless/serverless_metrics.h"
#include "sim/policies/serverless/serverless_policy.h"

namespace parallax {

struct ServerlessSimSetup {
  HardwareSpec hardware;
  ServerlessPolicy policy;
  std::vector<ServedModel> models;
  std::vector<ServedFunction> functions;
  int nodes = 1;
  uint64_t seed = 1;
  // Runs the engine to the end in place of engine.run(), e.g. in steps that report progress
  // (sim/experiment/run_progress.h); it must fire every event, as engine.run() does.
  std::function<void(Engine&)> drive;
};

struct ServerlessSimStats {
  uint64_t events = 0;  // engine events fired
};

// Runs the arrivals (`arrivals` when not empty, else `feed`) to the end and summarises them, with
// PCIe/NVLink utilisation over every node's links. `inspect`, if set, sees the nodes before they
// go (trace output). Throws std::logic_error if a request was lost.
ServerlessSummary simulate_serverless(const ServerlessSimSetup& setup, std::span<const ServerlessArrival> arrivals,
                                      ArrivalFeed* feed, ServerlessSimStats* stats = nullptr,
                                      const std::function<void(std::span<const ServerlessNode* const>)>& inspect = {});

}  // namespace parallax

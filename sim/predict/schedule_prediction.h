// File: sim/predict/schedule_prediction.h
// What `parallax predict schedule` answers, as JSON: the communication schedule a topology-aware
// IntraFusion runs for one collective on chosen GPUs of a machine (sim/policies/overlap/
// ring_synthesis.h, picked for steps of S/P bytes), beside the best single ring:
//   predict schedule --hardware PRESET --op all_gather|reduce_scatter --gpus 0,1,2,3 [--bytes N]
// Each ring: its order, each hop's path (index into the pair's paths, link type, bandwidth with
// shared links divided), its share of the bytes; times are the lock-step ring's
// (models::lockstep_ring_cost with the overlap defaults), the double ring's the slower ring's.
// Bad arguments throw InputError (exit 2). Fields: docs/overlap.md §Ring synthesis.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace parallax {

struct PredictScheduleOptions {
  std::string hardware;
  std::string op;
  std::vector<int> gpus;
  std::string bytes = "64MiB";  // nccl-tests' S
};

nlohmann::ordered_json predict_schedule(const PredictScheduleOptions& options);

}  // namespace parallax

// File: sim/scenario/serverless_workload.h
// workload.kind == "serverless": functions served by one node under one or more policies
// (docs/serverless.md; run by sim/experiment/serverless_experiment.cpp).
//
//   workload:
//     kind: serverless
//     functions: 160                      # function i replays trace row i mod rows
//     models: [densenet169, resnet152, bert_qa]   # catalog names, assigned round-robin
//     trace: {format: torpor, path: ../../traces/torpor/samples_derived.csv, minute_cv: 1}
//     duration_s: 1860                    # optional: cut the trace
//     policies: [torpor, native, keepalive, naive]
//     nodes: 1                            # optional: copies of the hardware behind a router
//                                         # (swap policies only; serverless_cluster.h)
//     closed_form: true                   # optional: false runs every copy and kernel on the
//                                         # platform (swap_executor.h; slower, same results)
//     reserve_GiB: 25                     # optional: swap policies' per-GPU model memory
//                                         # (Torpor's MEM_LIMIT_IN_GB, which controller.hpp
//                                         # multiplies by 1024^3)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/scenario/config_tree.h"

namespace parallax {

struct Scenario;
struct WorkloadContext;

struct ServerlessWorkloadSpec {
  int64_t functions = 0;
  std::vector<std::string> models;
  std::string trace_format = "torpor";
  std::string trace_path;         // resolved against the scenario's folder
  double minute_cv = 1;
  double duration_s = 0;          // 0 = the whole trace
  std::vector<std::string> policies{"torpor"};  // sim/policies/serverless/policy_presets.h
  double reserve_GiB = 25;
  int64_t nodes = 1;
  bool closed_form = true;        // false: every copy and kernel through the platform's solver
};

void read_serverless_workload(const ConfigNode& workload, const std::string& path, const WorkloadContext& context,
                              Scenario& scenario);

}  // namespace parallax

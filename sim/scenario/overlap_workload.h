// File: sim/scenario/overlap_workload.h
// workload.kind == "overlap": the grid of GEMM + collective pairs whose overlap strategies are
// predicted and simulated (docs/overlap.md §Grid; expanded by sim/policies/overlap/overlap_grid.h).
//
//   workload:
//     kind: overlap
//     ops: [ag_gemm, gemm_rs, gemm_ar]   tp: [2, 4, 8]   hidden: [2048, 2560, 4096, 5120]
//     tokens: [4096, 8192]               layers: [qkv, proj, fc1, fc2]
//     max_degree: 32                     default_degree: 4
// Every key but `kind` is optional; the defaults are the lists above.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/scenario/config_tree.h"

namespace parallax {

struct Scenario;
struct WorkloadContext;

struct OverlapWorkloadSpec {
  std::vector<std::string> ops{"ag_gemm", "gemm_rs", "gemm_ar"};
  std::vector<int64_t> tp{2, 4, 8};
  std::vector<int64_t> hidden{2048, 2560, 4096, 5120};
  std::vector<int64_t> tokens{4096, 8192};
  std::vector<std::string> layers{"qkv", "proj", "fc1", "fc2"};
  int64_t max_degree = 32;
  int64_t default_degree = 4;
};

void read_overlap_workload(const ConfigNode& workload, const std::string& path, const WorkloadContext& context,
                           Scenario& scenario);

}  // namespace parallax

// File: sim/scenario/overlap_workload.h
// workload.kind == "overlap", in one of two modes (docs/overlap.md):
// mode: grid (the default) — the grid of GEMM + collective pairs whose overlap strategies are
// predicted and simulated (§Grid; expanded by sim/policies/overlap/overlap_grid.h):
//
//   workload:
//     kind: overlap
//     ops: [ag_gemm, gemm_rs, gemm_ar]   tp: [2, 4, 8]   hidden: [2048, 2560, 4096, 5120]
//     tokens: [4096, 8192]               layers: [qkv, proj, fc1, fc2]
//     max_degree: 32                     default_degree: 4     trace_config: 0
// Every key but `kind` is optional; the defaults are the lists above.
//
// mode: end_to_end — a Megatron layer's training step per model × tp (§End-to-end):
//
//     mode: end_to_end   tp: [2, 4, 8]   seq_len: 2048   micro_batch: 2   trace_config: 0
//     models: [{name: gpt3-1.3b, hidden: 2048, heads: 16, layers: 24}, ...]   (required)
// The grid's ops/hidden/tokens/layers are an error in end_to_end mode, and models, seq_len and
// micro_batch in grid mode. trace_config indexes the configurations in expansion order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/scenario/config_tree.h"

namespace parallax {

struct Scenario;
struct WorkloadContext;

// One GPT-style model of the end-to-end mode (models::GptLayerSpec without the batch shape).
struct OverlapModelSpec {
  std::string name;
  int64_t hidden = 0;
  int64_t heads = 0;
  int64_t layers = 0;
};

struct OverlapWorkloadSpec {
  std::string mode = "grid";  // grid | end_to_end
  std::vector<std::string> ops{"ag_gemm", "gemm_rs", "gemm_ar"};
  std::vector<int64_t> tp{2, 4, 8};
  std::vector<int64_t> hidden{2048, 2560, 4096, 5120};
  std::vector<int64_t> tokens{4096, 8192};
  std::vector<std::string> layers{"qkv", "proj", "fc1", "fc2"};
  int64_t max_degree = 32;
  int64_t default_degree = 4;
  int64_t trace_config = 0;  // configuration written to trace.json (when output.trace)
  std::vector<OverlapModelSpec> models;  // end_to_end
  int64_t seq_len = 2048;                // end_to_end
  int64_t micro_batch = 2;               // end_to_end
};

void read_overlap_workload(const ConfigNode& workload, const std::string& path, const WorkloadContext& context,
                           Scenario& scenario);

}  // namespace parallax

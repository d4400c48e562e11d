// File: sim/policies/overlap/overlap_grid.h
// The configuration grid of Compass's evaluation as we define it (docs/overlap.md §Grid):
// operator pairs × TP degrees × GPT-style GEMM shapes, each shape one layer GEMM of a transformer
// with hidden size h at a token count m:
//   qkv  m × 3h × h     proj  m × h × h     fc1  m × 4h × h     fc2  m × h × 4h
// The default (compass-288): 3 pairs × TP {2, 4, 8} × h {2048, 2560, 4096, 5120} (GPT-3 1.3B,
// 2.7B, 6.7B, 13B) × m {4096, 8192} × 4 layers = 3 × 3 × 32 = 288. Expansion order: op, tp,
// hidden, tokens, layer (the last varies fastest).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/overlap_problem.h"

namespace parallax {

struct OverlapGridSpec {
  std::vector<std::string> ops{"ag_gemm", "gemm_rs", "gemm_ar"};
  std::vector<int64_t> tp{2, 4, 8};
  std::vector<int64_t> hidden{2048, 2560, 4096, 5120};
  std::vector<int64_t> tokens{4096, 8192};
  std::vector<std::string> layers{"qkv", "proj", "fc1", "fc2"};
};

struct OverlapGridPoint {
  models::OverlapProblem problem;
  int64_t hidden = 0;
  std::string layer;
};

// Throws std::invalid_argument for an unknown op or layer name, or a problem that fails
// models::check_overlap_problem.
std::vector<OverlapGridPoint> expand_overlap_grid(const OverlapGridSpec& spec);

inline constexpr const char* kOverlapLayers[] = {"qkv", "proj", "fc1", "fc2"};

}  // namespace parallax

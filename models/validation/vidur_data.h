// File: models/validation/vidur_data.h
// Readers for the derived vidur CSVs under tests/data/vidur/ (origin and columns in the README
// there): Llama-2-7B GEMM operator times mapped to GEMM shapes, and rank-0 NCCL all-reduce medians.
// I/O lives here, outside models_lib, which stays pure.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/gemm_cost.h"

namespace parallax::models {

struct VidurGemmRow {
  std::string op;        // attn_pre_proj, attn_post_proj, mlp_up_proj, mlp_down_proj
  int64_t tokens = 0;    // m
  int64_t tp = 1;        // tensor-parallel degree
  GemmShape shape;
  double measured_s = 0.0;
};

struct VidurAllReduceRow {
  int64_t ranks = 0;             // num_workers
  int64_t devices_per_node = 0;  // == ranks for single-node rows
  double bytes = 0.0;
  double median_s = 0.0;
};

// The GEMM shape of one operator (tests/data/vidur/README.md has the table): hidden h,
// intermediate i, TP degree t, m tokens. Throws std::invalid_argument for an unknown op.
GemmShape llama_operator_shape(const std::string& op, int64_t tokens, int64_t tp, int64_t hidden,
                               int64_t intermediate);

// Throw std::runtime_error naming the file (and line) when a file is missing or malformed.
std::vector<VidurGemmRow> read_vidur_gemm_csv(const std::string& path);
std::vector<VidurAllReduceRow> read_vidur_all_reduce_csv(const std::string& path);

// $PARALLAX_SOURCE_DIR, or "." when unset.
std::string source_dir();

}  // namespace parallax::models

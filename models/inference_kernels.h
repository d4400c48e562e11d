// File: models/inference_kernels.h
// A DNN inference at batch size n as a sequence of kernels, one per layer group of the model
// catalog (scenarios/models/catalog.yaml): FLOPs scale with n, weights are read once per batch,
// activations scale with n. Grid and occupancy follow a tensor-core tiling assumption. The
// caller passes plain layer figures (models/ does not read the catalog).
//
//   kernel i: flops = n·F_i;  dram_bytes = W_i + n·F_i / I_act;  grid = ceil(n·F_i / F_block)
//   with I_act = 100 FLOP/B of activation traffic and F_block = 2·128·128·512 FLOP (a 128×128
//   output tile over K = 512), 1 resident block per SM [assumptions; calibrate from Nsight's
//   grid size and dram__bytes per kernel]. ResNet-50 (4.09 GMAC) at n = 8: about 3.9k blocks in
//   all, its small layer groups filling ~40 SMs each.
//   With block_bytes > 0 a kernel also gets at least ceil(dram_bytes / block_bytes) blocks: a
//   memory-bound kernel (an fc layer at small batch, a GEMV) is tiled over its data, not its
//   FLOPs, so it spreads over enough SMs to stream its weights (colocate uses 64 KiB, where the
//   per-SM bandwidth cap makes the grid matter) [assumption].
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/kernel_time.h"

namespace parallax {

struct LayerFigures {
  std::string name;
  double flops = 0;         // per sample
  double param_bytes = 0;   // weights read once per batch
};

struct InferenceKernelAssumptions {
  double activation_flop_per_byte = 100;       // I_act
  double block_flops = 2.0 * 128 * 128 * 512;  // F_block
  int blocks_per_sm = 1;
  double block_bytes = 0;                      // 0: grid from FLOPs only
};

struct NamedKernel {
  std::string name;
  KernelShape shape;
};

std::vector<NamedKernel> inference_kernels(const std::string& model, const std::vector<LayerFigures>& layers,
                                           int batch, const InferenceKernelAssumptions& a = {});

}  // namespace parallax

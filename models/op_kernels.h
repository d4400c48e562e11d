// File: models/op_kernels.h
// The kernel a cuDNN/cuBLAS-like library would launch for each operator of a NetworkShape, as a
// KernelShape for models/kernel_time.h: its grid, the blocks an SM holds at once (from the
// block's threads, registers and shared memory against the GPU's per-SM limits), FLOPs and DRAM
// bytes.
//
// GEMM-like operators (convolutions as implicit GEMMs, linear layers, attention's batched GEMMs)
// pick, like cuBLAS's heuristic, the fastest of a small set of tensor-core tile configurations on
// the SMs given: tiles = ceil(m/tm)·ceil(n/tn)·batch, times a split-K factor when the output has
// too few tiles to fill the SMs; the tile's efficiency and the padding of partial tiles lower the
// rate. DRAM traffic: each operand once (activations, weights, output; L2 keeps the panels
// [assumption: an optimistic lower bound]), plus split-K's fp32 partial sums written and read.
// Depthwise convolutions, elementwise, normalisation, pooling and copies are memory-bound kernels
// of 256-thread blocks, 4 elements per thread (one output per thread for depthwise).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "models/kernel_time.h"
#include "models/network_shapes.h"

namespace parallax {

// Per-SM occupancy limits of a GPU generation [CUDA C++ Programming Guide, "Technical
// Specifications per Compute Capability"]: 7.0 (V100), 8.0 (A100), 8.6 (A6000), 9.0 (H100, H200).
struct GpuLimits {
  std::string generation;          // "sm_90"
  int max_threads_per_sm = 2048;
  int max_blocks_per_sm = 32;
  int registers_per_sm = 65536;
  int shared_memory_per_sm = 0;    // bytes usable by blocks
};
// From a preset GPU model name ("H100-SXM5", "A100-SXM4-80GB", "V100-SXM2", "RTX-A6000", "H200").
// Throws std::invalid_argument for a GPU whose generation is not known.
GpuLimits gpu_limits_for(std::string_view gpu_model);

struct BlockResources {
  int threads = 256;
  int registers_per_thread = 32;
  int shared_memory = 0;  // bytes
};
// Blocks of this size one SM holds at once (>= 1; 0 if one block exceeds the SM).
int resident_blocks(const GpuLimits& g, const BlockResources& b);

struct OpKernel {
  std::string name;        // the operator's name
  OpKind kind = OpKind::elementwise;
  KernelShape shape;
  std::string config;      // "tile 128x128 split-k 1", "elementwise"
};

// Element size in bytes and the dense rate relative to the preset's peak (bf16/fp16 tensor cores).
struct DataType {
  std::string name = "bf16";
  int bytes = 2;
  double rate_factor = 1.0;  // tf32: 0.5 of the bf16 tensor rate
};
// bf16, fp16 or tf32 (fp32 storage on tensor cores). Throws std::invalid_argument otherwise.
DataType data_type(std::string_view name);
// The rates as kernels of this type see them: the peak scaled by the type's rate factor.
DeviceRates rates_for(const DeviceRates& rates, const DataType& dtype);

// The kernels of `net` on `sms` SMs of a GPU with these rates and limits.
std::vector<OpKernel> op_kernels(const NetworkShape& net, const DataType& dtype, const DeviceRates& rates,
                                 const GpuLimits& limits, int sms);

// A model's forward pass as one stream of its kernels on `sms` SMs with a share of HBM bandwidth:
// the kernels run one after another, each for models/kernel_time.h's T(s, β).
struct TimedKernel {
  OpKernel kernel;
  double time_s = 0;
  int sms_used = 0;  // min(sms, what the grid can fill)
};
struct ModelLatency {
  std::vector<TimedKernel> kernels;
  double latency_s = 0;
  double flops = 0, dram_bytes = 0;
};
ModelLatency model_latency(const NetworkShape& net, const DataType& dtype, const DeviceRates& rates,
                           const GpuLimits& limits, int sms, double bandwidth_share);

// One GEMM (batch independent products of [m x k] by [k x n]) as the kernel the heuristic picks.
OpKernel gemm_kernel(int64_t m, int64_t n, int64_t k, int64_t batch, const DataType& dtype,
                     const DeviceRates& rates, const GpuLimits& limits, int sms);

}  // namespace parallax

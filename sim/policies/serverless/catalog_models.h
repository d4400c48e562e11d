// File: sim/policies/serverless/catalog_models.h
// Catalog models (scenarios/models/catalog.yaml) as the serverless policies see them: the one bridge
// from the model catalog to ServedModel, shared by `parallax run` and `bench serverless`
// (sim/experiment/serverless_sim.cpp), `parallax predict swap`, the hardware trial
// (hw/serverless_trial.cpp) and the property test.
//
// A layer group's compute time on a GPU:
//   - the catalog's measurement for the GPU's kind (`measured_ms`, the whole model), each group
//     its FLOP share;
//   - otherwise the sum of its operators' kernel times from the kernel model on the whole GPU
//     (models/op_kernels.h model_latency: the catalog's batch 1 and input, the preset's rates,
//     limits and launch time per kernel), so a group's times add up to what
//     `parallax predict model --batch 1 --dtype tf32|fp16` prints for the model.
// Groups own models/network_shapes' operators in order (catalog_group_ops).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "models/op_kernels.h"
#include "sim/platform/hardware_spec.h"
#include "sim/policies/serverless/served_model.h"
#include "sim/workload/model_catalog.h"

namespace parallax {

// `names`' catalog models with their layers' compute times on `gpu` (a hardware preset's GPU),
// each multiplied by `compute_scale` (the hardware trial's measured-to-catalog ratio; 1
// elsewhere). Computed once per model. std::invalid_argument for a GPU whose occupancy limits
// are unknown (models/op_kernels.h gpu_limits_for).
std::vector<ServedModel> served_models(std::span<const std::string> names, const GpuSpec& gpu,
                                       double compute_scale = 1);

// The operators [first, last) of `net` each layer group of `c` runs, walking both in first-use
// order: a group takes operators until their weights and running statistics reach its
// parameters; parameter-free operators (activations, adds, pools) stay with the group before
// them; an `unused` group takes none. std::logic_error when the catalog and the shapes disagree
// (a group's parameters end inside an operator, or operators are left over).
struct OpRange {
  size_t first = 0, last = 0;
};
std::vector<OpRange> catalog_group_ops(const CatalogModel& c, const NetworkShape& net);

// The kernel model's data type for a catalog dtype on this GPU: fp16 as is; fp32 as TF32 on the
// tensor cores (half their bf16 rate) [assumption: PyTorch's allow_tf32], except on sm_70
// (V100), which has no TF32 and runs fp32 on its CUDA cores at 1/8 of the fp16 tensor rate
// (64 fp32 FMAs per SM per clock against 8 tensor cores x 64 FMAs [NVIDIA Tesla V100 whitepaper]).
DataType catalog_data_type(int dtype_bytes, const GpuLimits& limits);

// Each layer group's compute time from the kernel model (the second rule above), in seconds.
std::vector<double> kernel_model_group_times(const CatalogModel& c, const GpuSpec& gpu);

}  // namespace parallax

// File: sim/policies/training/training_step.h
// One training step of a 3D-parallel GPT (training_config.h) as a StepGraph, and its metrics
// once StepGraphRun has run it (docs/training.md).
//
// Symmetry: the t GPUs of a TP group run the same kernels, and the dp replicas the same
// pipeline, so the graph computes on one representative GPU per stage (TP rank 0 of replica 0:
// GPU t·d·s, Megatron-LM's rank order tp, dp, pp) and leaves the others idle but for the
// collectives they take part in. Each layer of a pass is one task of the layer's time on its GPU:
// its kernels (layer_passes.h) and its TP collectives, each priced once by running it alone on the
// stage's TP group (`TrainingPricing::tp_collective_s`), the part not hidden behind a kernel kept
// as exposed communication. What crosses the fabric runs in the graph: the activations and
// gradients between stages (one send between the representatives: the other TP ranks' sends
// take their own rails), the data-parallel gradient collectives, bucketed as DDP does and started
// by the last micro-batch's backward as the bucket fills (one per TP rank, on the real dp groups:
// GPUs i + t·(j + d·s), j < d), the tied-embedding all-reduce between the first and the last stage,
// the optimizer step (a streaming kernel of 28 bytes per parameter: read fp32 weights, m, v and
// the bf16 gradient, write them and the bf16 weights) and, with the distributed optimizer, the
// all-gather of the updated parameters.
//
// Mixture of experts (training_config.h): an MoE layer's pass is its pieces (layer_passes.h
// moe_layer_forward / _backward), each a task, with an all-to-all between two of them: one per TP
// rank i on its EP group of the representative's replica block (GPUs i + t·(r + d·s), r < ep), the
// next piece waiting for all t; the other blocks' all-to-alls are left out by the symmetry, as the
// other replicas' sends are. The experts' gradients fill a bucket of their own, reduced per TP rank
// and expert shard r over the replicas j ≡ r (mod ep) that hold those experts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/policies/training/layer_passes.h"
#include "sim/policies/training/pipeline_schedule.h"
#include "sim/policies/step_graph/step_graph_run.h"
#include "sim/policies/training/training_memory.h"
#include "sim/workload/step_graph.h"
#include "sim/workload/training_config.h"

namespace parallax {

struct TrainingLayout {
  int64_t micro_batch = 1;
  PipelineSchedule schedule = PipelineSchedule::one_f_one_b;  // never automatic
  int64_t virtual_stages = 1;
};

// What the builder takes from the machine.
struct TrainingPricing {
  KernelMachine gpu;
  CollectiveTime tp_collective_s;  // a collective of the TP group, alone
  PairTime pair_s;                 // the overlap strategy's time of a GEMM + collective pair; null: none
};

struct TrainingStep {
  StepGraph graph;
  std::vector<int> stage_ranks;        // per stage: its representative rank
  std::vector<double> tp_exposed_s;    // per task: the TP communication inside a layer task
  int64_t microbatches = 0;
};

// Throws std::invalid_argument for a layout the model cannot be cut into (layers not divisible
// by pp·v, global batch not divisible by micro_batch·dp, dimensions not divisible by tp).
TrainingStep build_training_step(const TrainingConfig& config, const TrainingLayout& layout,
                                 const TrainingPricing& pricing);

// The FLOPs of one step counted as Megatron-LM's papers do (Narayanan et al. 2021, appendix;
// with full recomputation 96·B·s·L·h²·(1 + s/6h + V/16Lh)): per layer and sequence the forward
// is 24·s·h² + 4·s²·h, the logits 2·s·h·V; a step is 3 forwards (forward, two for backward),
// plus the recomputed forward of every layer (full) or of its attention core, 4·s²·h (selective),
// when `with_recompute`.
double megatron_step_flops(const TrainingConfig& config, bool with_recompute);

struct StageTime {
  double compute_s = 0, exposed_comm_s = 0, idle_s = 0;  // of the stage's representative GPU
};

struct TrainingMetrics {
  double step_time_s = 0;
  double flops = 0, model_flops = 0;       // with and without the recomputation
  double tflops_per_gpu = 0;               // flops / step_time_s / GPUs / 1e12
  double model_tflops_per_gpu = 0;
  double bubble_fraction = 0;              // mean over stages of idle_s / step_time_s
  std::vector<StageTime> stages;
};

TrainingMetrics training_metrics(const TrainingConfig& config, const TrainingStep& step, const StepGraphRun& run);

}  // namespace parallax

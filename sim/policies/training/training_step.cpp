// File: sim/policies/training/training_step.cpp
// The step graph of training_step.h: the pipeline wiring of pipeline_schedule.h with one task
// per layer pass, the fabric's traffic as tasks of their own.
#include "sim/policies/training/training_step.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace parallax {

namespace {

class StepBuilder {
 public:
  StepBuilder(const TrainingConfig& c, const TrainingLayout& l, const TrainingPricing& pricing)
      : c_(c), l_(l), t_(static_cast<int>(c.tp)), p_(static_cast<int>(c.pp)), d_(static_cast<int>(c.dp)),
        e_(static_cast<int>(c.ep)) {
    const GptModelConfig& m = c.model;
    if (l.micro_batch < 1 || c.global_batch % (l.micro_batch * c.dp) != 0)
      throw std::invalid_argument(fmt::format("global_batch {} is not a multiple of micro_batch {} × dp {}",
                                              c.global_batch, l.micro_batch, c.dp));
    if (m.layers % (c.pp * l.virtual_stages) != 0)
      throw std::invalid_argument(fmt::format("layers {} are not divisible by pp {} × virtual_stages {}", m.layers,
                                              c.pp, l.virtual_stages));
    microbatches_ = c.global_batch / (l.micro_batch * c.dp);
    layers_per_chunk_ = m.layers / (c.pp * l.virtual_stages);
    if (c.ep < 1 || c.dp % c.ep != 0 || (c.ep > 1 && m.moe.experts == 0))
      throw std::invalid_argument(fmt::format("ep {} must divide dp {} (and needs MoE layers)", c.ep, c.dp));
    if (m.moe.experts > 0 && layers_per_chunk_ % m.moe.every != 0)
      throw std::invalid_argument(fmt::format("a model chunk's {} layers are not a multiple of moe.every {}",
                                              layers_per_chunk_, m.moe.every));
    const auto price = [&](const LayerPass& pass) { return pass_time(pass, pricing.tp_collective_s, pricing.pair_s); };
    layer_fwd_ = price(layer_forward(m, l.micro_batch, c.tp, pricing.gpu));
    layer_bwd_ = price(layer_backward(m, l.micro_batch, c.tp, c.recompute, pricing.gpu));
    embedding_fwd_ = price(embedding_pass(m, l.micro_batch, c.tp, false, pricing.gpu));
    embedding_bwd_ = price(embedding_pass(m, l.micro_batch, c.tp, true, pricing.gpu));
    logits_fwd_ = price(logits_pass(m, l.micro_batch, c.tp, false, pricing.gpu));
    logits_bwd_ = price(logits_pass(m, l.micro_batch, c.tp, true, pricing.gpu));
    if (m.moe.experts > 0) {
      for (const LayerPass& piece : moe_layer_forward(m, l.micro_batch, c.tp, c.ep, pricing.gpu))
        moe_fwd_.push_back(price(piece));
      for (const LayerPass& piece : moe_layer_backward(m, l.micro_batch, c.tp, c.ep, c.recompute, pricing.gpu))
        moe_bwd_.push_back(price(piece));
      a2a_bytes_ = moe_all_to_all_bytes(m, l.micro_batch, c.tp, pricing.gpu.dtype.bytes);
      const LayerParameters moe = moe_layer_parameters(c);
      moe_grad_bytes_ = 2 * moe.dense;
      expert_grad_bytes_ = 2 * moe.expert;
    }
    memory_ = training_memory(c, l.micro_batch, l.schedule, l.virtual_stages);
    gpu_ = pricing.gpu;
    const auto h = static_cast<double>(m.hidden);
    layer_grad_bytes_ = (12 * h * h + 13 * h) / c.tp * 2;
    embedding_grad_bytes_ = static_cast<double>(m.vocab) * h / c.tp * 2;
    activation_bytes_ = static_cast<double>(m.seq_len * l.micro_batch) * h * 2 / c.tp;
  }

  TrainingStep build() {
    TrainingStep out;
    StepGraph& g = out.graph;
    g.ranks = t_ * p_ * d_;
    graph_ = &g;
    tp_exposed_ = &out.tp_exposed_s;
    for (int s = 0; s < p_; ++s) out.stage_ranks.push_back(rep(s));
    out.microbatches = microbatches_;
    const int v = static_cast<int>(l_.virtual_stages);
    const auto order = pipeline_order(l_.schedule, p_, static_cast<int>(microbatches_), v);
    // The micro-batch whose backward is a chunk's last on its stage: it starts the DP buckets.
    last_backward_.assign(static_cast<size_t>(p_), std::vector<int>(static_cast<size_t>(v), -1));
    for (int s = 0; s < p_; ++s)
      for (const PipelineOp& op : order[static_cast<size_t>(s)])
        if (op.backward) last_backward_[static_cast<size_t>(s)][static_cast<size_t>(op.chunk)] = op.microbatch;
    dp_tasks_.assign(static_cast<size_t>(p_), {});
    PipelineTasks tasks;
    tasks.pass = [this](int stage, const PipelineOp& op, std::vector<uint32_t> deps) { return pass(stage, op, std::move(deps)); };
    tasks.transfer = [this](int from, int to, const PipelineOp& op, uint32_t after) {
      StepTask send;
      send.kind = StepTask::Kind::send;
      send.label = fmt::format("mb{}.c{}.{}.send{}to{}", op.microbatch, op.chunk, op.backward ? "grad" : "act", from, to);
      send.rank = rep(from);
      send.peer = rep(to);
      send.bytes = activation_bytes_;
      send.deps = {after};
      return add(std::move(send), 0);
    };
    const std::vector<uint32_t> last = wire_pipeline(order, v, tasks);
    finish(last);
    return out;
  }

 private:
  int rep(int stage) const { return t_ * d_ * stage; }

  uint32_t add(StepTask task, double tp_exposed_s) {
    graph_->tasks.push_back(std::move(task));
    tp_exposed_->push_back(tp_exposed_s);
    return static_cast<uint32_t>(graph_->tasks.size() - 1);
  }

  uint32_t compute(int stage, std::string label, const PassTime& time, std::vector<uint32_t> deps) {
    StepTask k;
    k.kind = StepTask::Kind::compute;
    k.rank = rep(stage);
    k.kernel.name = label;
    k.kernel.solo_s = time.total_s;
    k.label = std::move(label);
    k.deps = std::move(deps);
    return add(std::move(k), time.exposed_comm_s);
  }

  // Rank of TP rank i, replica j, stage s (Megatron-LM's order tp, dp, pp).
  int rank(int i, int j, int stage) const { return i + t_ * (j + d_ * stage); }

  // The gradient collective of one bucket on every TP rank's dp group of `stage`.
  void flush_bucket(int stage, double& bucket, uint32_t after, const std::string& label) {
    if (d_ < 2 || bucket <= 0) {
      bucket = 0;
      return;
    }
    for (int i = 0; i < t_; ++i) {
      StepTask c;
      c.kind = StepTask::Kind::collective;
      c.label = fmt::format("{}.dp.tp{}", label, i);
      c.op = c_.gradient_reduce == GradientReduce::all_reduce ? CollectiveOp::all_reduce : CollectiveOp::reduce_scatter;
      for (int j = 0; j < d_; ++j) c.group.push_back(i + t_ * (j + d_ * stage));
      c.bytes = bucket;
      c.deps = {after};
      dp_tasks_[static_cast<size_t>(stage)].push_back(add(std::move(c), 0));
    }
    bucket = 0;
  }

  // The experts' gradients of one bucket: for every TP rank i and expert shard r < ep, the
  // replicas holding those experts (j = r + ep·q, q < dp/ep) reduce them.
  void flush_expert_bucket(int stage, double& bucket, uint32_t after, const std::string& label) {
    if (d_ / e_ < 2 || bucket <= 0) {
      bucket = 0;
      return;
    }
    for (int i = 0; i < t_; ++i)
      for (int r = 0; r < e_; ++r) {
        StepTask c;
        c.kind = StepTask::Kind::collective;
        c.label = fmt::format("{}.edp.tp{}.e{}", label, i, r);
        c.op = c_.gradient_reduce == GradientReduce::all_reduce ? CollectiveOp::all_reduce : CollectiveOp::reduce_scatter;
        for (int q = 0; q < d_ / e_; ++q) c.group.push_back(rank(i, r + e_ * q, stage));
        c.bytes = bucket;
        c.deps = {after};
        dp_tasks_[static_cast<size_t>(stage)].push_back(add(std::move(c), 0));
      }
    bucket = 0;
  }

  // An MoE layer's all-to-all: one per TP rank i, each over its EP group (replicas 0 .. ep-1 of
  // the stage: the representative's and the ones beside it; the other EP groups' all-to-alls run
  // alike on their own GPUs and are left out by the symmetry). What follows waits for all t.
  std::vector<uint32_t> all_to_all(int stage, const std::string& label, uint32_t after) {
    std::vector<uint32_t> out;
    for (int i = 0; i < t_; ++i) {
      StepTask c;
      c.kind = StepTask::Kind::collective;
      c.label = fmt::format("{}.tp{}", label, i);
      c.op = CollectiveOp::all_to_all;
      for (int r = 0; r < e_; ++r) c.group.push_back(rank(i, r, stage));
      c.bytes = a2a_bytes_;
      c.deps = {after};
      out.push_back(add(std::move(c), 0));
    }
    return out;
  }

  uint32_t pass(int stage, const PipelineOp& op, std::vector<uint32_t> deps) {
    const int vs = op.chunk * p_ + stage;
    const bool first = vs == 0, last = vs == p_ * static_cast<int>(l_.virtual_stages) - 1;
    const std::string head = fmt::format("mb{}.c{}", op.microbatch, op.chunk);
    const int first_layer = vs * static_cast<int>(layers_per_chunk_);
    std::vector<uint32_t> after = std::move(deps);  // what the next task waits for
    const auto chain = [&](std::string label, const PassTime& time) {
      after = {compute(stage, std::move(label), time, std::move(after))};
    };
    // A layer's pass: one task, or an MoE layer's pieces with an all-to-all between each two.
    const auto layer = [&](int index, const char* dir, const PassTime& dense, const std::vector<PassTime>& moe) {
      const std::string name = fmt::format("{}.layer{}.{}", head, index, dir);
      if (!is_moe_layer(c_.model, index)) return chain(name, dense);
      for (size_t k = 0; k < moe.size(); ++k) {
        if (k > 0) after = all_to_all(stage, fmt::format("{}.a2a{}", name, k - 1), after.front());
        chain(fmt::format("{}.moe{}", name, k), moe[k]);
      }
    };
    if (!op.backward) {
      if (first) chain(head + ".embedding.fwd", embedding_fwd_);
      for (int i = 0; i < layers_per_chunk_; ++i) layer(first_layer + i, "fwd", layer_fwd_, moe_fwd_);
      if (last) chain(head + ".logits.fwd", logits_fwd_);
      return after.front();
    }
    const bool reduce = last_backward_[static_cast<size_t>(stage)][static_cast<size_t>(op.chunk)] == op.microbatch;
    double bucket = 0, expert_bucket = 0;
    if (last) {
      chain(head + ".logits.bwd", logits_bwd_);
      if (reduce) bucket += embedding_grad_bytes_;
    }
    for (int i = static_cast<int>(layers_per_chunk_) - 1; i >= 0; --i) {
      const int index = first_layer + i;
      layer(index, "bwd", layer_bwd_, moe_bwd_);
      if (!reduce) continue;
      const std::string label = fmt::format("{}.layer{}", head, index);
      if (is_moe_layer(c_.model, index)) {
        expert_bucket += expert_grad_bytes_;
        if (expert_bucket >= c_.gradient_bucket_bytes) flush_expert_bucket(stage, expert_bucket, after.front(), label);
      }
      bucket += is_moe_layer(c_.model, index) ? moe_grad_bytes_ : layer_grad_bytes_;
      if (bucket >= c_.gradient_bucket_bytes) flush_bucket(stage, bucket, after.front(), label);
    }
    if (first) {
      chain(head + ".embedding.bwd", embedding_bwd_);
      if (reduce) bucket += embedding_grad_bytes_;
    }
    if (reduce) {
      flush_bucket(stage, bucket, after.front(), head + ".rest");
      flush_expert_bucket(stage, expert_bucket, after.front(), head + ".rest");
    }
    return after.front();
  }

  void finish(const std::vector<uint32_t>& last) {
    std::vector<std::vector<uint32_t>> before_optimizer(static_cast<size_t>(p_));
    if (p_ > 1) {
      // The tied word embeddings: their gradients summed between the first and the last stage.
      for (int i = 0; i < t_; ++i) {
        StepTask c;
        c.kind = StepTask::Kind::collective;
        c.label = fmt::format("embedding.grad.tp{}", i);
        c.op = CollectiveOp::all_reduce;
        c.group = {i, i + t_ * d_ * (p_ - 1)};
        c.bytes = embedding_grad_bytes_;
        c.deps = {last.front(), last.back()};
        const uint32_t id = add(std::move(c), 0);
        before_optimizer.front().push_back(id);
        before_optimizer.back().push_back(id);
      }
    }
    const bool distributed = c_.gradient_reduce == GradientReduce::reduce_scatter && d_ > 1;
    for (int s = 0; s < p_; ++s) {
      const StageMemory& mem = memory_[static_cast<size_t>(s)];
      const double dense = mem.parameters - mem.expert_parameters;
      const double params = dense / (distributed ? d_ : 1) + mem.expert_parameters / (distributed ? d_ / e_ : 1);
      std::vector<uint32_t> deps{last[static_cast<size_t>(s)]};
      for (uint32_t id : dp_tasks_[static_cast<size_t>(s)]) deps.push_back(id);
      for (uint32_t id : before_optimizer[static_cast<size_t>(s)]) deps.push_back(id);
      PassTime adam;
      adam.total_s = adam.kernel_s = streaming_kernel_s(28 * params, gpu_);
      const uint32_t opt = compute(s, fmt::format("stage{}.optimizer", s), adam, std::move(deps));
      if (!distributed) continue;
      for (int i = 0; i < t_; ++i) {
        StepTask c;
        c.kind = StepTask::Kind::collective;
        c.label = fmt::format("stage{}.params.ag.tp{}", s, i);
        c.op = CollectiveOp::all_gather;
        for (int j = 0; j < d_; ++j) c.group.push_back(i + t_ * (j + d_ * s));
        c.bytes = 2 * dense;
        c.deps = {opt};
        add(std::move(c), 0);
      }
      if (mem.expert_parameters <= 0 || d_ / e_ < 2) continue;
      for (int i = 0; i < t_; ++i)
        for (int r = 0; r < e_; ++r) {
          StepTask c;
          c.kind = StepTask::Kind::collective;
          c.label = fmt::format("stage{}.experts.ag.tp{}.e{}", s, i, r);
          c.op = CollectiveOp::all_gather;
          for (int q = 0; q < d_ / e_; ++q) c.group.push_back(rank(i, r + e_ * q, s));
          c.bytes = 2 * mem.expert_parameters;
          c.deps = {opt};
          add(std::move(c), 0);
        }
    }
  }

  const TrainingConfig& c_;
  const TrainingLayout& l_;
  int t_, p_, d_, e_;
  int64_t microbatches_ = 0, layers_per_chunk_ = 0;
  PassTime layer_fwd_, layer_bwd_, embedding_fwd_, embedding_bwd_, logits_fwd_, logits_bwd_;
  std::vector<PassTime> moe_fwd_, moe_bwd_;  // an MoE layer's pieces (moe_layer_forward / _backward)
  double a2a_bytes_ = 0, moe_grad_bytes_ = 0, expert_grad_bytes_ = 0;
  std::vector<StageMemory> memory_;
  KernelMachine gpu_;
  double layer_grad_bytes_ = 0, embedding_grad_bytes_ = 0, activation_bytes_ = 0;
  StepGraph* graph_ = nullptr;
  std::vector<double>* tp_exposed_ = nullptr;
  std::vector<std::vector<int>> last_backward_;
  std::vector<std::vector<uint32_t>> dp_tasks_;
};

}  // namespace

TrainingStep build_training_step(const TrainingConfig& config, const TrainingLayout& layout,
                                 const TrainingPricing& pricing) {
  if (layout.schedule == PipelineSchedule::automatic)
    throw std::invalid_argument("build_training_step: resolve schedule 'auto' first");
  return StepBuilder(config, layout, pricing).build();
}

double megatron_step_flops(const TrainingConfig& c, bool with_recompute) {
  const auto B = static_cast<double>(c.global_batch);
  const auto s = static_cast<double>(c.model.seq_len);
  const auto h = static_cast<double>(c.model.hidden);
  const auto L = static_cast<double>(c.model.layers);
  const auto V = static_cast<double>(c.model.vocab);
  const double layer_fwd = 24 * B * s * h * h + 4 * B * s * s * h;
  // An MoE layer: k experts' FFNs per token (16·s·h² each) in place of one, and the router's
  // 2·s·h·E; the capacity's padding slots are not counted.
  const MoeConfig& moe = c.model.moe;
  const double moe_fwd = moe.experts > 0 ? static_cast<double>(c.model.layers / moe.every) *
                                               (static_cast<double>(moe.top_k - 1) * 16 * B * s * h * h +
                                                2 * B * s * h * static_cast<double>(moe.experts))
                                         : 0;
  double flops = 3 * (L * layer_fwd + moe_fwd + 2 * B * s * h * V);
  if (with_recompute && c.recompute == Recompute::full) flops += L * layer_fwd + moe_fwd;
  if (with_recompute && c.recompute == Recompute::selective) flops += L * 4 * B * s * s * h;
  return flops;
}

TrainingMetrics training_metrics(const TrainingConfig& c, const TrainingStep& step, const StepGraphRun& run) {
  const StepSummary summary = step_summary(step.graph, run);
  TrainingMetrics m;
  m.step_time_s = summary.step_time_s;
  m.flops = megatron_step_flops(c, true);
  m.model_flops = megatron_step_flops(c, false);
  const auto gpus = static_cast<double>(c.tp * c.pp * c.dp);
  if (m.step_time_s > 0) {
    m.tflops_per_gpu = m.flops / m.step_time_s / gpus / 1e12;
    m.model_tflops_per_gpu = m.model_flops / m.step_time_s / gpus / 1e12;
  }
  std::vector<double> tp_exposed(static_cast<size_t>(step.graph.ranks), 0.0);
  for (size_t i = 0; i < step.graph.tasks.size(); ++i)
    if (step.graph.tasks[i].kind == StepTask::Kind::compute)
      tp_exposed[static_cast<size_t>(step.graph.tasks[i].rank)] += step.tp_exposed_s[i];
  for (int r : step.stage_ranks) {
    const RankTime& rt = summary.ranks[static_cast<size_t>(r)];
    const double tp = std::min(tp_exposed[static_cast<size_t>(r)], rt.compute_s);
    m.stages.push_back({rt.compute_s - tp, rt.exposed_comm_s + tp, rt.idle_s});
    if (m.step_time_s > 0) m.bubble_fraction += rt.idle_s / m.step_time_s / static_cast<double>(step.stage_ranks.size());
  }
  return m;
}

}  // namespace parallax

// File: sim/workload/chakra_sample_writer.cpp
// Writes traces/chakra/gpt_tp2_pp2_dp2/: the shipped Chakra sample, one training step of a small
// GPT-style model on 8 ranks laid out tp=2 (fastest), pp=2, dp=2, written by our Chakra writer.
//   build/sim/workload/chakra_sample_writer traces/chakra/gpt_tp2_pp2_dp2
// The step (GPipe: every forward, then every backward; one stream per rank, so each rank's tasks
// run in order): a host delay (data loading); per micro-batch and layer the Megatron-LM TP layer:
// QKV GEMM, attention, output projection, all-reduce over the TP pair, MLP up and down GEMMs,
// all-reduce; stage 0 sends its activations to stage 1 and stage 1 sends the gradients back;
// backward does twice the forward FLOPs with the same two all-reduces per layer; then the gradient
// all-reduce over the DP pair and an Adam step (memory-bound). FLOPs and DRAM bytes are written as
// num_ops and tensor_size, so the replay re-times them for any GPU.
// Sizes: hidden 4096, 32 heads, sequence 2048, micro-batch 1, 2 micro-batches, 4 layers (2 per
// stage), bf16.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "sim/workload/chakra_writer.h"

namespace {

using parallax::StepGraph;
using parallax::StepTask;

constexpr int kTp = 2, kPp = 2, kDp = 2;
constexpr double kHidden = 4096, kSeq = 2048, kLayersPerStage = 2;
constexpr int kMicroBatches = 2;
constexpr double kBf16 = 2;

int rank_of(int dp, int pp, int tp) { return (dp * kPp + pp) * kTp + tp; }

// Appends tasks; each depends on the last task of every rank it involves (one stream per rank).
class StepBuilder {
 public:
  StepBuilder() {
    graph_.ranks = kTp * kPp * kDp;
    last_.assign(graph_.ranks, -1);
  }
  void add(StepTask t, const std::vector<int>& ranks) {
    for (const int r : ranks)
      if (last_[r] >= 0 && std::find(t.deps.begin(), t.deps.end(), last_[r]) == t.deps.end())
        t.deps.push_back(static_cast<uint32_t>(last_[r]));
    const auto index = static_cast<int>(graph_.tasks.size());
    for (const int r : ranks) last_[r] = index;
    graph_.tasks.push_back(std::move(t));
  }
  void gemm(int rank, const std::string& label, double m, double n, double k, double scale = 1) {
    StepTask t;
    t.rank = rank;
    t.label = label;
    t.kernel = {label, scale * 2 * m * n * k, scale * kBf16 * (m * k + k * n + m * n), 0, 0};
    add(std::move(t), {rank});
  }
  void memory_kernel(int rank, const std::string& label, double bytes) {
    StepTask t;
    t.rank = rank;
    t.label = label;
    t.kernel = {label, bytes / 4, bytes, 0, 0};  // ~1 FLOP per 4 bytes: elementwise
    add(std::move(t), {rank});
  }
  void delay(int rank, const std::string& label, double seconds) {
    StepTask t;
    t.kind = StepTask::Kind::delay;
    t.rank = rank;
    t.label = label;
    t.delay_s = seconds;
    add(std::move(t), {rank});
  }
  void collective(parallax::CollectiveOp op, const std::vector<int>& group, const std::string& label, double bytes) {
    StepTask t;
    t.kind = StepTask::Kind::collective;
    t.rank = group[0];
    t.label = label;
    t.op = op;
    t.group = group;
    t.bytes = bytes;
    add(std::move(t), group);
  }
  void send(int from, int to, const std::string& label, double bytes) {
    StepTask t;
    t.kind = StepTask::Kind::send;
    t.rank = from;
    t.peer = to;
    t.label = label;
    t.bytes = bytes;
    add(std::move(t), {from, to});
  }
  const StepGraph& graph() const { return graph_; }

 private:
  StepGraph graph_;
  std::vector<int> last_;
};

// One transformer layer's pass on each rank of a TP group: forward (scale 1) or backward (scale 2).
void layer(StepBuilder& b, int dp, int pp, int mb, int layer_index, bool backward) {
  const double scale = backward ? 2 : 1;
  const auto pass = backward ? "bwd" : "fwd";
  const double h = kHidden, s = kSeq, ht = kHidden / kTp;
  std::vector<int> tp_group;
  for (int tp = 0; tp < kTp; ++tp) tp_group.push_back(rank_of(dp, pp, tp));
  const auto name = [&](const char* what) { return fmt::format("stage{}.mb{}.layer{}.{}.{}", pp, mb, layer_index, pass, what); };
  for (const int r : tp_group) {
    b.gemm(r, name("qkv"), s, 3 * ht, h, scale);
    b.gemm(r, name("attention"), s, s, 2 * ht, scale);  // QK^T and AV: 2·2·s²·h/tp FLOPs
    b.gemm(r, name("proj"), s, h, ht, scale);
  }
  b.collective(parallax::CollectiveOp::all_reduce, tp_group, name("attn.allreduce"), s * h * kBf16);
  for (const int r : tp_group) {
    b.gemm(r, name("mlp.up"), s, 4 * ht, h, scale);
    b.gemm(r, name("mlp.down"), s, h, 4 * ht, scale);
  }
  b.collective(parallax::CollectiveOp::all_reduce, tp_group, name("mlp.allreduce"), s * h * kBf16);
}

StepGraph sample_step() {
  StepBuilder b;
  for (int r = 0; r < kTp * kPp * kDp; ++r) b.delay(r, "dataloader", 150e-6);
  const double activation_bytes = kSeq * kHidden * kBf16;
  for (int dp = 0; dp < kDp; ++dp) {
    for (int mb = 0; mb < kMicroBatches; ++mb)
      for (int pp = 0; pp < kPp; ++pp) {
        for (int l = 0; l < kLayersPerStage; ++l) layer(b, dp, pp, mb, pp * kLayersPerStage + l, false);
        if (pp + 1 < kPp)
          for (int tp = 0; tp < kTp; ++tp)
            b.send(rank_of(dp, pp, tp), rank_of(dp, pp + 1, tp), fmt::format("stage{}.mb{}.fwd.send", pp, mb),
                   activation_bytes);
      }
    for (int mb = 0; mb < kMicroBatches; ++mb)
      for (int pp = kPp - 1; pp >= 0; --pp) {
        for (int l = kLayersPerStage - 1; l >= 0; --l) layer(b, dp, pp, mb, pp * kLayersPerStage + l, true);
        if (pp > 0)
          for (int tp = 0; tp < kTp; ++tp)
            b.send(rank_of(dp, pp, tp), rank_of(dp, pp - 1, tp), fmt::format("stage{}.mb{}.bwd.send", pp, mb),
                   activation_bytes);
      }
  }
  // Gradients of one stage's layers on one TP rank: 12·h² parameters per layer / tp, bf16.
  const double grad_bytes = kLayersPerStage * 12 * kHidden * kHidden / kTp * kBf16;
  for (int pp = 0; pp < kPp; ++pp)
    for (int tp = 0; tp < kTp; ++tp) {
      std::vector<int> dp_group;
      for (int dp = 0; dp < kDp; ++dp) dp_group.push_back(rank_of(dp, pp, tp));
      b.collective(parallax::CollectiveOp::all_reduce, dp_group, fmt::format("stage{}.tp{}.grad.allreduce", pp, tp),
                   grad_bytes);
    }
  // Adam: fp32 master weights, two moments and the bf16 gradient read, weights written: 18 B/param.
  for (int r = 0; r < kTp * kPp * kDp; ++r) b.memory_kernel(r, "optimizer.adam", grad_bytes / kBf16 * 18);
  return b.graph();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: chakra_sample_writer DIR\n");
    return 2;
  }
  try {
    for (const auto& path : parallax::write_chakra_dir(sample_step(), argv[1], "gpt_tp2_pp2_dp2"))
      std::printf("%s\n", path.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "chakra_sample_writer: %s\n", e.what());
    return 1;
  }
  return 0;
}

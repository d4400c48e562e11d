// File: sim/policies/training/pipeline_schedule.cpp
#include "sim/policies/training/pipeline_schedule.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace parallax {

namespace {

std::vector<PipelineOp> one_f_one_b(int stage, int p, int m) {
  std::vector<PipelineOp> ops;
  const int warmup = std::min(p - stage - 1, m);
  for (int i = 0; i < warmup; ++i) ops.push_back({i, 0, false});
  for (int i = 0; i < m - warmup; ++i) {
    ops.push_back({warmup + i, 0, false});
    ops.push_back({i, 0, true});
  }
  for (int i = m - warmup; i < m; ++i) ops.push_back({i, 0, true});
  return ops;
}

// Megatron-LM's interleaved order: the k-th forward chunk-pass of a stage is micro-batch
// (k / (p·v))·p + k % p of chunk (k / p) % v; backwards walk the chunks in reverse.
PipelineOp interleaved_op(int k, int p, int v, bool backward) {
  const int group = k / (p * v);
  const int chunk = (k / p) % v;
  return {group * p + k % p, backward ? v - 1 - chunk : chunk, backward};
}

std::vector<PipelineOp> interleaved(int stage, int p, int m, int v) {
  const int total = m * v;
  const int warmup = std::min((p - stage - 1) * 2 + (v - 1) * p, total);
  std::vector<PipelineOp> ops;
  for (int k = 0; k < warmup; ++k) ops.push_back(interleaved_op(k, p, v, false));
  for (int i = 0; i < total - warmup; ++i) {
    ops.push_back(interleaved_op(warmup + i, p, v, false));
    ops.push_back(interleaved_op(i, p, v, true));
  }
  for (int k = total - warmup; k < total; ++k) ops.push_back(interleaved_op(k, p, v, true));
  return ops;
}

}  // namespace

std::vector<std::vector<PipelineOp>> pipeline_order(PipelineSchedule schedule, int stages, int microbatches,
                                                    int chunks) {
  if (stages < 1 || microbatches < 1 || chunks < 1)
    throw std::invalid_argument("pipeline_order: stages, micro-batches and chunks must be >= 1");
  std::vector<std::vector<PipelineOp>> order(static_cast<size_t>(stages));
  for (int s = 0; s < stages; ++s) {
    std::vector<PipelineOp>& ops = order[static_cast<size_t>(s)];
    switch (schedule) {
      case PipelineSchedule::gpipe:
        if (chunks != 1) throw std::invalid_argument("gpipe runs one model chunk per stage");
        for (int i = 0; i < microbatches; ++i) ops.push_back({i, 0, false});
        for (int i = 0; i < microbatches; ++i) ops.push_back({i, 0, true});
        break;
      case PipelineSchedule::one_f_one_b:
        if (chunks != 1) throw std::invalid_argument("1f1b runs one model chunk per stage");
        ops = one_f_one_b(s, stages, microbatches);
        break;
      case PipelineSchedule::interleaved:
        if (chunks < 2) throw std::invalid_argument("interleaved needs virtual_stages >= 2");
        if (microbatches % stages != 0)
          throw std::invalid_argument(fmt::format(
              "interleaved needs the micro-batches ({}) to be a multiple of the pipeline stages ({})", microbatches,
              stages));
        ops = interleaved(s, stages, microbatches, chunks);
        break;
      case PipelineSchedule::automatic:
        throw std::invalid_argument("pipeline_order: 'auto' is resolved before the order is built");
    }
  }
  return order;
}

std::vector<uint32_t> wire_pipeline(const std::vector<std::vector<PipelineOp>>& order, int chunks,
                                    const PipelineTasks& tasks) {
  const int p = static_cast<int>(order.size());
  const int virtual_stages = p * chunks;
  int microbatches = 0;
  for (const auto& ops : order)
    for (const PipelineOp& op : ops) microbatches = std::max(microbatches, op.microbatch + 1);
  constexpr uint32_t kNone = UINT32_MAX;
  // ready[pass][virtual stage][micro-batch]: the task the consumer of that pass's output waits for
  // (forward: the next virtual stage; backward: the previous one), kNone until emitted.
  std::vector<std::vector<uint32_t>> ready[2];
  for (auto& r : ready) r.assign(static_cast<size_t>(virtual_stages), std::vector<uint32_t>(static_cast<size_t>(microbatches), kNone));
  std::vector<size_t> next(static_cast<size_t>(p), 0);
  std::vector<uint32_t> last(static_cast<size_t>(p), kNone);
  size_t remaining = 0;
  for (const auto& ops : order) remaining += ops.size();
  while (remaining > 0) {
    bool progress = false;
    for (int s = 0; s < p; ++s) {
      const auto& ops = order[static_cast<size_t>(s)];
      while (next[static_cast<size_t>(s)] < ops.size()) {
        const PipelineOp& op = ops[next[static_cast<size_t>(s)]];
        const int vs = op.chunk * p + s;
        const auto mb = static_cast<size_t>(op.microbatch);
        std::vector<uint32_t> deps;
        if (last[static_cast<size_t>(s)] != kNone) deps.push_back(last[static_cast<size_t>(s)]);
        // Input: forward from virtual stage vs-1, backward from vs+1 (the last one's backward
        // starts from its own forward, which precedes it on this stage's stream).
        const int from = op.backward ? vs + 1 : vs - 1;
        if (from >= 0 && from < virtual_stages) {
          const uint32_t input = ready[op.backward ? 1 : 0][static_cast<size_t>(from)][mb];
          if (input == kNone) break;
          deps.push_back(input);
        }
        const uint32_t done = tasks.pass(s, op, std::move(deps));
        const int to = op.backward ? vs - 1 : vs + 1;
        uint32_t out = done;
        if (to >= 0 && to < virtual_stages && to % p != s) out = tasks.transfer(s, to % p, op, done);
        ready[op.backward ? 1 : 0][static_cast<size_t>(vs)][mb] = out;
        last[static_cast<size_t>(s)] = done;
        ++next[static_cast<size_t>(s)];
        --remaining;
        progress = true;
      }
    }
    if (!progress) throw std::logic_error("wire_pipeline: the pipeline order deadlocks");
  }
  return last;
}

}  // namespace parallax

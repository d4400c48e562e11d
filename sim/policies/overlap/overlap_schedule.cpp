// File: sim/policies/overlap/overlap_schedule.cpp
// Strategy -> StepGraph (overlap_schedule.h).
#include "sim/policies/overlap/overlap_schedule.h"

#include <fmt/format.h>

#include "models/overlap_intrafusion.h"

namespace parallax {

namespace {

using models::OverlapStrategy;

// Task indices a later task waits for (a GEMM's per-rank tasks, a ring step's copies and kernels).
using Done = std::vector<uint32_t>;

Done deps_of_both(Done a, const Done& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

class GraphBuilder {
 public:
  GraphBuilder(const models::OverlapProblem& problem, const OverlapGroup& group, const models::OverlapParams& params,
               int comm_sms)
      : problem_(problem), group_(group), params_(params) {
    graph_.ranks = static_cast<int>(group_.order.size());
    graph_.gpu_of_rank = group_.order;
    graph_.comm_sms = comm_sms;
    for (int r = 0; r < graph_.ranks; ++r) {
      const int gpu = group_.order[static_cast<size_t>(r)];
      if (gpu >= static_cast<int>(rank_of_gpu_.size())) rank_of_gpu_.resize(static_cast<size_t>(gpu) + 1, -1);
      rank_of_gpu_[static_cast<size_t>(gpu)] = r;
    }
  }

  uint32_t add(StepTask task, Done deps) {
    task.deps = std::move(deps);
    graph_.tasks.push_back(std::move(task));
    return static_cast<uint32_t>(graph_.tasks.size() - 1);
  }

  Done delay(std::string label, double seconds, Done deps) {
    StepTask t;
    t.kind = StepTask::Kind::delay;
    t.label = std::move(label);
    t.delay_s = seconds;
    return {add(std::move(t), std::move(deps))};
  }

  // A kernel on every rank that alone on `sms_used` SMs takes `time_s` and streams `bytes` of HBM.
  // `time_s` is a fitted kernel time (models/gemm_cost.h), its launch included.
  Done compute(const std::string& label, double time_s, double bytes, int64_t sms_used, const Done& deps) {
    const models::GpuComputeParams& gpu = group_.machine.gpu;
    KernelProfile k{label, time_s * gpu.peak_flops * static_cast<double>(sms_used) / static_cast<double>(gpu.sms),
                    bytes, 0};
    k.launch_included = true;
    return on_every_rank(label, k, deps);
  }

  // One compute task per rank running `kernel`, all after `deps` (through a join when there are
  // several: P tasks after a barrier of ~2P take ~3P deps, not 2P²).
  Done on_every_rank(const std::string& label, const KernelProfile& kernel, const Done& after) {
    Done deps = after;
    if (deps.size() > 1) {
      StepTask j;
      j.kind = StepTask::Kind::join;
      j.label = label + ":join";
      deps = {add(std::move(j), std::move(deps))};
    }
    Done out;
    for (int r = 0; r < graph_.ranks; ++r) {
      StepTask t;
      t.kind = StepTask::Kind::compute;
      t.label = label;
      t.rank = r;
      t.kernel = kernel;
      out.push_back(add(std::move(t), deps));
    }
    return out;
  }

  // One ring step moving `chunk` bytes per hop on the single ring, or split over the double ring:
  // the handshake, then the copies (each reads its source GPU's HBM and writes its destination's
  // on the platform: no stand-in kernel for the communication's HBM traffic).
  Done ring_step(const std::string& label, double chunk, bool double_ring, Done deps) {
    const Done handshake = delay(label, params_.step_overhead_s, std::move(deps));
    StepTask t;
    t.kind = StepTask::Kind::copies;
    t.label = label;
    if (double_ring) {
      const double b1 = group_.machine.double_ring.first.bottleneck_Bps();
      const double b2 = group_.machine.double_ring.second.bottleneck_Bps();
      const double x1 = b1 / (b1 + b2);
      // A group built by hand with only order / reverse_order runs those on their first paths.
      const bool routed = !group_.first.order.empty();
      add_ring(t, routed ? group_.first.order : group_.order, x1 * chunk, group_.first.paths);
      add_ring(t, routed ? group_.second.order : group_.reverse_order, (1.0 - x1) * chunk, group_.second.paths);
    } else {
      const bool routed = !group_.single.order.empty();
      add_ring(t, routed ? group_.single.order : group_.order, chunk, group_.single.paths);
    }
    return {add(std::move(t), handshake)};
  }

  // One round of the pair schedule: the handshake, then its rings at once, ring r moving
  // shares[r] of `chunk`.
  Done pair_round(const std::string& label, double chunk, const PairRound& round, Done deps) {
    const Done handshake = delay(label, params_.step_overhead_s, std::move(deps));
    StepTask t;
    t.kind = StepTask::Kind::copies;
    t.label = label;
    for (size_t r = 0; r < round.rings.size(); ++r)
      add_ring(t, round.rings[r].order, round.shares[r] * chunk, round.rings[r].paths);
    return {add(std::move(t), handshake)};
  }

  // A whole collective of `bytes` on the single ring after `deps`: base delay, then its steps.
  Done collective(const std::string& label, double bytes, Done deps) {
    Done last = delay(label + ":base", params_.collective_base_latency_s, std::move(deps));
    const int64_t steps = models::ring_steps(models::overlap_collective(problem_.op), problem_.tp);
    const double chunk = bytes / static_cast<double>(problem_.tp);
    for (int64_t s = 0; s < steps; ++s) last = ring_step(fmt::format("{}:step{}", label, s), chunk, false, last);
    return last;
  }

  StepGraph take() { return std::move(graph_); }

 private:
  // One copy per hop of the ring `order` (GPUs), hop i over paths[i] (empty: path 0).
  void add_ring(StepTask& t, const std::vector<int>& order, double bytes, const std::vector<int>& paths) const {
    if (order.size() < 2) return;
    for (size_t i = 0; i < order.size(); ++i)
      t.copies.push_back({rank_of(order[i]), rank_of(order[(i + 1) % order.size()]), bytes,
                          paths.empty() ? 0 : paths[i]});
  }

  int rank_of(int gpu) const {
    if (gpu < 0 || gpu >= static_cast<int>(rank_of_gpu_.size()) || rank_of_gpu_[static_cast<size_t>(gpu)] < 0)
      throw std::invalid_argument(fmt::format("overlap_schedule: ring GPU {} is not in the group", gpu));
    return rank_of_gpu_[static_cast<size_t>(gpu)];
  }

  const models::OverlapProblem& problem_;
  const OverlapGroup& group_;
  const models::OverlapParams& params_;
  StepGraph graph_;
  std::vector<int> rank_of_gpu_;
};

void build_sequential(GraphBuilder& b, const models::OverlapProblem& p, const OverlapGroup& g) {
  const models::GemmShape shape = models::overlap_gemm_shape(p, p.m);
  const Done gemm =
      b.compute("gemm", models::gemm_time_s(shape, g.machine.gpu), models::gemm_bytes(shape), g.machine.gpu.sms, {});
  b.collective("comm", models::overlap_collective_bytes(p), {gemm});
}

// IntraFusion's unit of work: one of tp GEMM blocks on the SMs left beside the communication,
// and the chunk one ring step moves.
struct FusionBlock {
  int64_t sms;
  double time_s, bytes, chunk;
};

FusionBlock fusion_block(const models::OverlapProblem& p, const OverlapGroup& g, const models::OverlapParams& params) {
  const int64_t sms = models::gemm_sms_beside_comm(g.machine.gpu, params);
  const models::GemmShape shape = models::overlap_gemm_shape(p, p.m);
  const double pd = static_cast<double>(p.tp);
  return {sms, models::gemm_time_on_sms_s(shape, g.machine.gpu, sms) / pd, models::gemm_bytes(shape) / pd,
          models::overlap_collective_bytes(p) / pd};
}

void build_intrafusion(GraphBuilder& b, const models::OverlapProblem& p, const OverlapGroup& g,
                       const models::OverlapParams& params, bool double_ring) {
  const FusionBlock fb = fusion_block(p, g, params);
  const int64_t sms = fb.sms;
  const double block_s = fb.time_s, block_bytes = fb.bytes, chunk = fb.chunk;
  const int64_t steps = p.tp - 1;
  Done barrier = b.delay("fused:base", params.collective_base_latency_s, {});
  auto block = [&](int64_t j, const Done& deps) {
    return b.compute(fmt::format("fused:block{}", j), block_s, block_bytes, sms, deps);
  };
  if (p.op == models::OverlapOp::ag_gemm) {
    for (int64_t j = 0; j < steps; ++j) {
      Done c = block(j, barrier);
      const Done s = b.ring_step(fmt::format("fused:step{}", j), chunk, double_ring, barrier);
      barrier = deps_of_both(std::move(c), s);
    }
    block(steps, barrier);
    return;
  }
  // gemm_rs / gemm_ar: the first block alone, then each step sends while the next block runs.
  barrier = block(0, barrier);
  for (int64_t j = 0; j < steps; ++j) {
    Done s = b.ring_step(fmt::format("fused:step{}", j), chunk, double_ring, barrier);
    const Done c = block(j + 1, barrier);
    barrier = deps_of_both(std::move(s), c);
  }
  if (p.op == models::OverlapOp::gemm_ar)
    for (int64_t j = 0; j < steps; ++j)
      barrier = b.ring_step(fmt::format("fused:ag_step{}", j), chunk, double_ring, barrier);
}

// IntraFusion on the pair schedule (models/overlap_intrafusion.cpp has the same order): ag runs
// round r beside the blocks that arrived before it and the last round's blocks at the end; rs the
// mirror; ar: rs, then the all-gather's rounds.
void build_pair_intrafusion(GraphBuilder& b, const models::OverlapProblem& p, const OverlapGroup& g,
                            const models::OverlapParams& params) {
  const FusionBlock fb = fusion_block(p, g, params);
  const int64_t sms = fb.sms;
  const double block_s = fb.time_s, block_bytes = fb.bytes, chunk = fb.chunk;
  const std::vector<PairRound>& rounds = g.pair_rounds;
  auto blocks = [&](const std::string& label, double n, const Done& deps) {
    return b.compute(label, n * block_s, n * block_bytes, sms, deps);
  };
  auto beside = [&](size_t r) { return r == 0 ? 1.0 : rounds[r - 1].chunks; };
  Done barrier = b.delay("fused:base", params.collective_base_latency_s, {});
  if (p.op == models::OverlapOp::ag_gemm) {
    for (size_t r = 0; r < rounds.size(); ++r) {
      Done c = blocks(fmt::format("fused:blocks{}", r), beside(r), barrier);
      const Done s = b.pair_round(fmt::format("fused:round{}", r), chunk, rounds[r], barrier);
      barrier = deps_of_both(std::move(c), s);
    }
    blocks("fused:blocks_last", rounds.back().chunks, barrier);
    return;
  }
  barrier = blocks("fused:blocks_first", rounds.back().chunks, barrier);
  for (size_t i = 0; i < rounds.size(); ++i) {
    const size_t r = rounds.size() - 1 - i;
    Done s = b.pair_round(fmt::format("fused:round{}", i), chunk, rounds[r], barrier);
    const Done c = blocks(fmt::format("fused:blocks{}", i), beside(r), barrier);
    barrier = deps_of_both(std::move(s), c);
  }
  if (p.op == models::OverlapOp::gemm_ar)
    for (size_t r = 0; r < rounds.size(); ++r)
      barrier = b.pair_round(fmt::format("fused:ag_round{}", r), chunk, rounds[r], barrier);
}

void build_interdecom(GraphBuilder& b, const models::OverlapProblem& p, const OverlapGroup& g,
                      const models::OverlapParams& params, int64_t degree) {
  const int64_t sms = models::gemm_sms_beside_comm(g.machine.gpu, params);
  const double d = static_cast<double>(degree);
  const int64_t rows = (p.m + degree - 1) / degree;
  const models::GemmShape shape = models::overlap_gemm_shape(p, rows);
  const double chunk_gemm_s = models::gemm_time_on_sms_s(shape, g.machine.gpu, sms);
  const double chunk_bytes = models::overlap_collective_bytes(p) / d;
  Done compute_prev, comm_prev;
  const bool ag = p.op == models::OverlapOp::ag_gemm;
  for (int64_t i = 0; i < degree; ++i) {
    const std::string label = fmt::format("chunk{}", i);
    if (ag) {
      comm_prev = b.collective(label + ":comm", chunk_bytes, comm_prev);
      const Done gemm = b.compute(label + ":gemm", chunk_gemm_s, models::gemm_bytes(shape), sms, deps_of_both(compute_prev, comm_prev));
      compute_prev = b.delay(label + ":sync", params.chunk_sync_s, gemm);
    } else {
      const Done gemm = b.compute(label + ":gemm", chunk_gemm_s, models::gemm_bytes(shape), sms, compute_prev);
      compute_prev = b.delay(label + ":sync", params.chunk_sync_s, gemm);
      comm_prev = b.collective(label + ":comm", chunk_bytes, deps_of_both(comm_prev, compute_prev));
    }
  }
}

}  // namespace

StepGraph overlap_schedule(const models::OverlapProblem& problem, const OverlapGroup& group,
                           const models::OverlapParams& params, models::OverlapStrategy strategy, int64_t degree) {
  models::check_overlap_problem(problem);
  if (degree < 1) throw std::invalid_argument("overlap_schedule: degree must be >= 1");
  const int comm_sms = strategy == OverlapStrategy::sequential
                           ? 0
                           : static_cast<int>(group.machine.gpu.sms - models::gemm_sms_beside_comm(group.machine.gpu, params));
  GraphBuilder b(problem, group, params, comm_sms);
  switch (strategy) {
    case OverlapStrategy::sequential: build_sequential(b, problem, group); break;
    case OverlapStrategy::intrafusion_ring: build_intrafusion(b, problem, group, params, false); break;
    case OverlapStrategy::intrafusion_double_ring:
      // The pair schedule where the model prices it faster than the double ring for this problem.
      if (!group.pair_rounds.empty() &&
          models::intrafusion_cost(problem, group.machine, params, models::FusionRings::double_ring).pair_schedule)
        build_pair_intrafusion(b, problem, group, params);
      else build_intrafusion(b, problem, group, params, true);
      break;
    case OverlapStrategy::interdecom: build_interdecom(b, problem, group, params, degree); break;
  }
  return b.take();
}

}  // namespace parallax

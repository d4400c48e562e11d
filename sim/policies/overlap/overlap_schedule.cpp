// File: sim/policies/overlap/overlap_schedule.cpp
// Strategy -> task graph (overlap_schedule.h).
#include "sim/policies/overlap/overlap_schedule.h"

#include <fmt/format.h>

#include "models/overlap_intrafusion.h"

namespace parallax {

namespace {

using models::OverlapStrategy;

class GraphBuilder {
 public:
  GraphBuilder(const models::OverlapProblem& problem, const OverlapGroup& group, const models::OverlapParams& params)
      : problem_(problem), group_(group), params_(params) {}

  uint32_t add(OverlapTask task, std::vector<uint32_t> deps) {
    task.deps = std::move(deps);
    tasks_.push_back(std::move(task));
    return static_cast<uint32_t>(tasks_.size() - 1);
  }

  uint32_t delay(std::string label, double seconds, std::vector<uint32_t> deps) {
    OverlapTask t;
    t.kind = OverlapTask::Kind::delay;
    t.label = std::move(label);
    t.delay_s = seconds;
    return add(std::move(t), std::move(deps));
  }

  // A kernel that alone on `sms_used` SMs takes `time_s` and streams `bytes` of HBM.
  uint32_t compute(std::string label, double time_s, double bytes, int64_t sms_used, std::vector<uint32_t> deps) {
    const models::GpuComputeParams& gpu = group_.machine.gpu;
    OverlapTask t;
    t.kind = OverlapTask::Kind::compute;
    t.label = label;
    t.kernel = KernelProfile{std::move(label),
                             time_s * gpu.peak_flops * static_cast<double>(sms_used) / static_cast<double>(gpu.sms),
                             bytes, 0};
    return add(std::move(t), std::move(deps));
  }

  // One ring step moving `chunk` bytes per hop on the single ring, or split over the double ring.
  uint32_t ring_step(std::string label, double chunk, bool double_ring, std::vector<uint32_t> deps) {
    OverlapTask t;
    t.kind = OverlapTask::Kind::ring_step;
    t.label = std::move(label);
    t.delay_s = params_.step_overhead_s;
    if (double_ring) {
      const double b1 = group_.machine.double_ring.first.bottleneck_Bps();
      const double b2 = group_.machine.double_ring.second.bottleneck_Bps();
      const double x1 = b1 / (b1 + b2);
      // A group built by hand with only order / reverse_order runs those on their first paths.
      const bool routed = !group_.first.order.empty();
      t.rings.push_back({routed ? group_.first.order : group_.order, x1 * chunk, group_.first.paths});
      t.rings.push_back({routed ? group_.second.order : group_.reverse_order, (1.0 - x1) * chunk, group_.second.paths});
    } else {
      const bool routed = !group_.single.order.empty();
      t.rings.push_back({routed ? group_.single.order : group_.order, chunk, group_.single.paths});
    }
    return add(std::move(t), std::move(deps));
  }

  // One round of the pair schedule: its rings at once, ring r moving shares[r] of `chunk`.
  uint32_t pair_round(std::string label, double chunk, const PairRound& round, std::vector<uint32_t> deps) {
    OverlapTask t;
    t.kind = OverlapTask::Kind::ring_step;
    t.label = std::move(label);
    t.delay_s = params_.step_overhead_s;
    for (size_t r = 0; r < round.rings.size(); ++r)
      t.rings.push_back({round.rings[r].order, round.shares[r] * chunk, round.rings[r].paths});
    return add(std::move(t), std::move(deps));
  }

  // A whole collective of `bytes` on the single ring after `deps`: base delay, then its steps.
  // Returns the last task.
  uint32_t collective(const std::string& label, double bytes, std::vector<uint32_t> deps) {
    uint32_t last = delay(label + ":base", params_.collective_base_latency_s, std::move(deps));
    const int64_t steps = models::ring_steps(models::overlap_collective(problem_.op), problem_.tp);
    const double chunk = bytes / static_cast<double>(problem_.tp);
    for (int64_t s = 0; s < steps; ++s) last = ring_step(fmt::format("{}:step{}", label, s), chunk, false, {last});
    return last;
  }

  std::vector<OverlapTask> take() { return std::move(tasks_); }

 private:
  const models::OverlapProblem& problem_;
  const OverlapGroup& group_;
  const models::OverlapParams& params_;
  std::vector<OverlapTask> tasks_;
};

void build_sequential(GraphBuilder& b, const models::OverlapProblem& p, const OverlapGroup& g) {
  const models::GemmShape shape = models::overlap_gemm_shape(p, p.m);
  const uint32_t gemm =
      b.compute("gemm", models::gemm_time_s(shape, g.machine.gpu), models::gemm_bytes(shape), g.machine.gpu.sms, {});
  b.collective("comm", models::overlap_collective_bytes(p), {gemm});
}

void build_intrafusion(GraphBuilder& b, const models::OverlapProblem& p, const OverlapGroup& g,
                       const models::OverlapParams& params, bool double_ring) {
  const int64_t sms = models::gemm_sms_beside_comm(g.machine.gpu, params);
  const models::GemmShape shape = models::overlap_gemm_shape(p, p.m);
  const double pd = static_cast<double>(p.tp);
  const double block_s = models::gemm_time_on_sms_s(shape, g.machine.gpu, sms) / pd;
  const double block_bytes = models::gemm_bytes(shape) / pd;
  const double chunk = models::overlap_collective_bytes(p) / pd;
  const int64_t steps = p.tp - 1;
  std::vector<uint32_t> barrier{b.delay("fused:base", params.collective_base_latency_s, {})};
  auto block = [&](int64_t j, std::vector<uint32_t> deps) {
    return b.compute(fmt::format("fused:block{}", j), block_s, block_bytes, sms, std::move(deps));
  };
  if (p.op == models::OverlapOp::ag_gemm) {
    for (int64_t j = 0; j < steps; ++j) {
      const uint32_t c = block(j, barrier);
      const uint32_t s = b.ring_step(fmt::format("fused:step{}", j), chunk, double_ring, barrier);
      barrier = {c, s};
    }
    block(steps, barrier);
    return;
  }
  // gemm_rs / gemm_ar: the first block alone, then each step sends while the next block runs.
  barrier = {block(0, barrier)};
  for (int64_t j = 0; j < steps; ++j) {
    const uint32_t s = b.ring_step(fmt::format("fused:step{}", j), chunk, double_ring, barrier);
    const uint32_t c = block(j + 1, barrier);
    barrier = {s, c};
  }
  if (p.op == models::OverlapOp::gemm_ar)
    for (int64_t j = 0; j < steps; ++j)
      barrier = {b.ring_step(fmt::format("fused:ag_step{}", j), chunk, double_ring, barrier)};
}

// IntraFusion on the pair schedule (models/overlap_intrafusion.cpp has the same order): ag runs
// round r beside the blocks that arrived before it and the last round's blocks at the end; rs the
// mirror; ar: rs, then the all-gather's rounds.
void build_pair_intrafusion(GraphBuilder& b, const models::OverlapProblem& p, const OverlapGroup& g,
                            const models::OverlapParams& params) {
  const int64_t sms = models::gemm_sms_beside_comm(g.machine.gpu, params);
  const models::GemmShape shape = models::overlap_gemm_shape(p, p.m);
  const double pd = static_cast<double>(p.tp);
  const double block_s = models::gemm_time_on_sms_s(shape, g.machine.gpu, sms) / pd;
  const double block_bytes = models::gemm_bytes(shape) / pd;
  const double chunk = models::overlap_collective_bytes(p) / pd;
  const std::vector<PairRound>& rounds = g.pair_rounds;
  auto blocks = [&](std::string label, double n, std::vector<uint32_t> deps) {
    return b.compute(std::move(label), n * block_s, n * block_bytes, sms, std::move(deps));
  };
  auto beside = [&](size_t r) { return r == 0 ? 1.0 : rounds[r - 1].chunks; };
  std::vector<uint32_t> barrier{b.delay("fused:base", params.collective_base_latency_s, {})};
  if (p.op == models::OverlapOp::ag_gemm) {
    for (size_t r = 0; r < rounds.size(); ++r) {
      const uint32_t c = blocks(fmt::format("fused:blocks{}", r), beside(r), barrier);
      const uint32_t s = b.pair_round(fmt::format("fused:round{}", r), chunk, rounds[r], barrier);
      barrier = {c, s};
    }
    blocks("fused:blocks_last", rounds.back().chunks, barrier);
    return;
  }
  barrier = {blocks("fused:blocks_first", rounds.back().chunks, barrier)};
  for (size_t i = 0; i < rounds.size(); ++i) {
    const size_t r = rounds.size() - 1 - i;
    const uint32_t s = b.pair_round(fmt::format("fused:round{}", i), chunk, rounds[r], barrier);
    const uint32_t c = blocks(fmt::format("fused:blocks{}", i), beside(r), barrier);
    barrier = {s, c};
  }
  if (p.op == models::OverlapOp::gemm_ar)
    for (size_t r = 0; r < rounds.size(); ++r)
      barrier = {b.pair_round(fmt::format("fused:ag_round{}", r), chunk, rounds[r], barrier)};
}

void build_interdecom(GraphBuilder& b, const models::OverlapProblem& p, const OverlapGroup& g,
                      const models::OverlapParams& params, int64_t degree) {
  const int64_t sms = models::gemm_sms_beside_comm(g.machine.gpu, params);
  const double d = static_cast<double>(degree);
  const int64_t rows = (p.m + degree - 1) / degree;
  const models::GemmShape shape = models::overlap_gemm_shape(p, rows);
  const double chunk_gemm_s = models::gemm_time_on_sms_s(shape, g.machine.gpu, sms);
  const double chunk_bytes = models::overlap_collective_bytes(p) / d;
  std::vector<uint32_t> compute_prev, comm_prev;
  const bool ag = p.op == models::OverlapOp::ag_gemm;
  for (int64_t i = 0; i < degree; ++i) {
    const std::string label = fmt::format("chunk{}", i);
    if (ag) {
      const uint32_t comm = b.collective(label + ":comm", chunk_bytes, comm_prev);
      comm_prev = {comm};
      std::vector<uint32_t> deps = compute_prev;
      deps.push_back(comm);
      const uint32_t gemm = b.compute(label + ":gemm", chunk_gemm_s, models::gemm_bytes(shape), sms, deps);
      compute_prev = {b.delay(label + ":sync", params.chunk_sync_s, {gemm})};
    } else {
      const uint32_t gemm = b.compute(label + ":gemm", chunk_gemm_s, models::gemm_bytes(shape), sms, compute_prev);
      const uint32_t sync = b.delay(label + ":sync", params.chunk_sync_s, {gemm});
      compute_prev = {sync};
      std::vector<uint32_t> deps = comm_prev;
      deps.push_back(sync);
      comm_prev = {b.collective(label + ":comm", chunk_bytes, deps)};
    }
  }
}

}  // namespace

OverlapSchedule overlap_schedule(const models::OverlapProblem& problem, const OverlapGroup& group,
                                 const models::OverlapParams& params, models::OverlapStrategy strategy,
                                 int64_t degree) {
  models::check_overlap_problem(problem);
  if (degree < 1) throw std::invalid_argument("overlap_schedule: degree must be >= 1");
  GraphBuilder b(problem, group, params);
  OverlapSchedule s;
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
  if (strategy != OverlapStrategy::sequential)
    s.comm_sms = static_cast<int>(group.machine.gpu.sms - models::gemm_sms_beside_comm(group.machine.gpu, params));
  s.tasks = b.take();
  return s;
}

}  // namespace parallax

// File: sim/platform/sim_platform.cpp
#include "sim/platform/sim_platform.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "models/block_dispatch.h"
#include "sim/platform/hierarchical_collective.h"
#include "sim/platform/pairwise_collective.h"
#include "sim/platform/ring_collective.h"
#include "sim/platform/tree_collective.h"

namespace parallax {

namespace {
// Engine tags: the top two bits say what the event is for.
constexpr uint64_t kKindShift = 62;
constexpr uint64_t kLane = 0, kTimer = 1, kSolve = 2, kCompletion = 3;
constexpr uint64_t kPayloadMask = (uint64_t{1} << kKindShift) - 1;
// At one instant: completions first, then starts and timers, then one solve for all of them.
constexpr Priority kCompletionPriority = 0;
constexpr Priority kSolvePriority = 255;
constexpr ConstraintId kNoConstraint = UINT32_MAX;

std::string gib(int64_t b) { return fmt::format("{:.2f} GiB", static_cast<double>(b) / (1ull << 30)); }

// What the grids on a partition's SMs can keep in flight from DRAM together: s·bw_per_SM
// (models/kernel_time.h; bw_per_SM 0 = no per-SM cap, then the constraint is never drawn on).
double partition_sm_bandwidth_Bps(const GpuSpec& g, const PartitionSpec& spec) {
  return g.bw_per_sm_Bps > 0 ? spec.sms * g.bw_per_sm_Bps : g.hbm_Bps;
}
}  // namespace

SimPlatform::SimPlatform(Engine& engine, const HardwareSpec& spec, ActivityLog* log,
                         std::vector<GpuPartitioning> partitioning)
    : engine_(engine), spec_(spec), log_(log), partitioning_(std::move(partitioning)), topology_(spec_) {
  dispatch_wake_.platform = this;
  link_capacity_.resize(topology_.capacity_group_count(), kNoConstraint);
  link_usage_.resize(topology_.directions().size());
  // Each link's capacity group, then at most four per GPU (SMs, HBM, copy engines out and in).
  solver_.reserve_constraints(topology_.capacity_group_count() + 4 * static_cast<size_t>(cluster_gpu_count(spec_)));
  for (const auto& d : topology_.directions())
    if (link_capacity_[d.capacity_group] == kNoConstraint)
      link_capacity_[d.capacity_group] = solver_.add_constraint(d.bandwidth_Bps);
  for (int gpu = 0; gpu < cluster_gpu_count(spec_); ++gpu) {
    const GpuSpec& g = cluster_gpu(spec_, gpu);
    if (g.sms <= 0 || !(g.peak_flops > 0) || !(g.hbm_Bps > 0))
      throw PlatformError(fmt::format("hardware '{}': GPU model '{}' needs sms, peak_flops and hbm_Bps > 0",
                                      spec_.name, g.model));
    GpuState st;
    st.sm_pool = solver_.add_constraint(g.peak_flops);
    st.hbm = solver_.add_constraint(g.hbm_Bps);
    gpus_.push_back(st);
    const bool bounded = g.copy_engine_Bps > 0;
    const double ce = g.copy_engine_Bps * std::max(1, g.copy_engines);
    copy_out_.push_back(bounded ? solver_.add_constraint(ce) : kNoConstraint);
    copy_in_.push_back(bounded ? solver_.add_constraint(ce) : kNoConstraint);
  }
  if (log_) {
    log_->link_directions.clear();
    for (const auto& d : topology_.directions())
      log_->link_directions.push_back({d.name, to_string(d.kind), d.bandwidth_Bps});
    log_->gpu_models.clear();
    for (int gpu = 0; gpu < gpu_count(); ++gpu) log_->gpu_models.push_back(cluster_gpu(spec_, gpu).model);
  }
}

SimPlatform::~SimPlatform() = default;

void SimPlatform::check_gpu(GpuId gpu) const {
  if (gpu < 0 || gpu >= gpu_count())
    throw PlatformError(fmt::format("GPU {} does not exist (the machine has {})", gpu, gpu_count()));
}

const GpuSpec& SimPlatform::gpu(GpuId id) const {
  check_gpu(id);
  return cluster_gpu(spec_, id);
}

const GpuPartitioning& SimPlatform::partitioning(GpuId id) const {
  const std::string& model = gpu(id).model;
  for (const GpuPartitioning& p : partitioning_)
    if (p.name == model || std::find(p.models.begin(), p.models.end(), model) != p.models.end()) return p;
  throw PlatformError(fmt::format("GPU {} ('{}'): the platform was given no partitioning rules for this model", id, model));
}

Path SimPlatform::path(Endpoint src, Endpoint dst) {
  const int s = endpoint_node(src), d = endpoint_node(dst);
  if (s == d) throw PlatformError(fmt::format("path from {} to itself", topology_.node_name(s)));
  return path_of(topology_.route(s, d), src, dst);
}

std::vector<Path> SimPlatform::paths(Endpoint src, Endpoint dst) {
  const int s = endpoint_node(src), d = endpoint_node(dst);
  if (s == d) throw PlatformError(fmt::format("path from {} to itself", topology_.node_name(s)));
  std::vector<Path> out;
  for (const Topology::Route& r : topology_.routes(s, d)) out.push_back(path_of(r, src, dst));
  return out;
}

Path SimPlatform::path_of(const Topology::Route& r, Endpoint src, Endpoint dst) const {
  Path p;
  p.latency = r.latency;
  for (uint32_t dir : r.directions) {
    const Topology::LinkDirection& ld = topology_.directions()[dir];
    p.links.push_back({static_cast<uint32_t>(ld.capacity_group), ld.kind, false, ld.bandwidth_Bps});
  }
  // The copy engines, as cached_route() puts a copy on them.
  const auto groups = static_cast<uint32_t>(topology_.capacity_group_count());
  const auto gpus = static_cast<uint32_t>(gpu_count());
  for (const Endpoint e : {src, dst}) {
    if (e.kind != Endpoint::Kind::gpu || !(spec_.gpus[e.index].copy_engine_Bps > 0)) continue;
    const auto g = static_cast<uint32_t>(e.index);
    p.links.push_back({e == src ? groups + g : groups + gpus + g, LinkKind::other, true, spec_.gpus[e.index].copy_engine_Bps});
  }
  return p;
}

int SimPlatform::endpoint_node(Endpoint e) const {
  if (e.kind == Endpoint::Kind::gpu) {
    check_gpu(e.index);
    return topology_.gpu_node(e.index);
  }
  if (e.index < 0 || e.index >= host_count())
    throw PlatformError(fmt::format("host {} does not exist (the machine has {})", e.index, host_count()));
  return topology_.host_node(e.index);
}

// --- timers -------------------------------------------------------------------------------------

void SimPlatform::call_at(Time at, CompletionListener& listener, uint64_t tag) {
  uint32_t slot;
  if (!free_timers_.empty()) {
    slot = free_timers_.back();
    free_timers_.pop_back();
  } else {
    slot = static_cast<uint32_t>(timers_.size());
    timers_.emplace_back();
  }
  timers_[slot] = Timer{&listener, tag};
  engine_.schedule_at(at, *this, (kTimer << kKindShift) | slot);
}

// --- activities ---------------------------------------------------------------------------------

uint32_t SimPlatform::grow_activities() {
  activities_.emplace_back();
  return static_cast<uint32_t>(activities_.size() - 1);
}

std::unique_ptr<ActivityRecord> SimPlatform::new_record(ActivityKind kind, std::string_view label,
                                                        std::string src, std::string dst) const {
  auto r = std::make_unique<ActivityRecord>();
  r->kind = kind;
  r->name = std::string(label);
  r->src = std::move(src);
  r->dst = std::move(dst);
  r->issued = now();
  return r;
}

uint64_t SimPlatform::route_key(int src_node, int dst_node) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(src_node)) << 32) | static_cast<uint32_t>(dst_node);
}

double SimPlatform::copy_bound(int src_node, int dst_node) const {
  double bound = FlowSolver::kUnbounded;
  for (int node : {src_node, dst_node})
    if (node < gpu_count() && cluster_gpu(spec_, node).copy_engine_Bps > 0)
      bound = std::min(bound, cluster_gpu(spec_, node).copy_engine_Bps);
  return bound;
}

// A copy reads its source GPU's HBM and writes its destination GPU's (one byte each per byte
// copied), so it shares HBM with the kernels running there as they share it with each other.
// Inside a box only (cached_route): a copy between hosts (fabric_class) leaves HBM out, since
// coupling every GPU's flows through its HBM joins a cluster's collectives into one solver
// component (a 512-GPU training step went from 7 s to minutes of CPU).
void SimPlatform::add_copy_hbm(int src_node, int dst_node, std::vector<FlowElement>& elements) const {
  if (src_node < gpu_count()) elements.push_back({gpus_[static_cast<size_t>(src_node)].hbm, 1.0});
  if (dst_node < gpu_count()) elements.push_back({gpus_[static_cast<size_t>(dst_node)].hbm, 1.0});
}

// A copy between two nodes of a cluster: its route is composed on the spot and its flow class
// lives as long as the copy. Caching them per pair, as inside a box, would keep a class for
// every pair an all-to-all touches (67 M at 8,192 GPUs).
FlowClassId SimPlatform::fabric_class(int src_node, int dst_node, Activity& a, Time& latency) {
  latency = topology_.route_into(src_node, dst_node, a.own_directions);  // (the slot's buffer, reused)
  std::vector<FlowElement>& elements = class_elements_;
  elements.clear();
  for (uint32_t d : a.own_directions) elements.push_back({link_capacity_[topology_.directions()[d].capacity_group], 1.0});
  if (copy_out_[src_node] != kNoConstraint) elements.push_back({copy_out_[src_node], 1.0});
  if (copy_in_[dst_node] != kNoConstraint) elements.push_back({copy_in_[dst_node], 1.0});
  return solver_.make_class(elements, copy_bound(src_node, dst_node));
}

uint32_t SimPlatform::cached_route(int src_node, int dst_node, int path_index) {
  // Topology::kMaxPaths <= 4: the path index takes the key's top two bits (nodes < 2^30).
  const uint64_t key = route_key(src_node, dst_node) | (static_cast<uint64_t>(path_index) << 62);
  auto it = route_index_.find(key);
  if (it != route_index_.end()) return it->second;
  CachedRoute cr;
  cr.src_node = src_node;
  cr.dst_node = dst_node;
  std::vector<FlowElement>& elements = class_elements_;
  elements.clear();
  if (src_node == dst_node) {
    // A copy within one GPU reads and writes its HBM.
    cr.latency = Time::zero();
    elements.push_back({gpus_[src_node].hbm, 2.0});
  } else {
    const Topology::Route r =
        path_index == 0 ? topology_.route(src_node, dst_node) : topology_.routes(src_node, dst_node)[static_cast<size_t>(path_index)];
    cr.latency = r.latency;
    cr.directions = r.directions;
    for (uint32_t d : r.directions)
      elements.push_back({link_capacity_[topology_.directions()[d].capacity_group], 1.0});
    if (src_node < gpu_count() && copy_out_[src_node] != kNoConstraint)
      elements.push_back({copy_out_[src_node], 1.0});
    if (dst_node < gpu_count() && copy_in_[dst_node] != kNoConstraint)
      elements.push_back({copy_in_[dst_node], 1.0});
    add_copy_hbm(src_node, dst_node, elements);
  }
  // One copy runs on one copy engine: it is bounded by one engine's bandwidth, while all copies
  // of a direction share the engines' total (the copy_out_/copy_in_ constraints).
  cr.cls = solver_.make_class(elements, copy_bound(src_node, dst_node));
  cr.lane = lane_for(cr.latency);
  route_index_.emplace(key, static_cast<uint32_t>(routes_.size()));
  routes_.push_back(std::move(cr));
  return static_cast<uint32_t>(routes_.size() - 1);
}

ActivityId SimPlatform::copy(Endpoint src, Endpoint dst, Bytes bytes, CompletionListener& listener,
                             uint64_t tag, std::string_view label) {
  if (bytes.count() < 0) throw PlatformError(fmt::format("copy of a negative size ({} bytes)", bytes.count()));
  const int s = endpoint_node(src), d = endpoint_node(dst);
  return start_copy(s, d, route_of(s, d, 0), static_cast<double>(bytes.count()), listener, tag, label, 0);
}

ActivityId SimPlatform::copy_over(Endpoint src, Endpoint dst, int path_index, Bytes bytes, CompletionListener& listener,
                                  uint64_t tag, std::string_view label) {
  if (bytes.count() < 0) throw PlatformError(fmt::format("copy of a negative size ({} bytes)", bytes.count()));
  const int s = endpoint_node(src), d = endpoint_node(dst);
  if (path_index != 0) {
    const size_t n = s == d ? 1 : topology_.routes(s, d).size();
    if (path_index < 0 || static_cast<size_t>(path_index) >= n)
      throw PlatformError(fmt::format("copy {} → {}: no path {} (there are {})", topology_.node_name(s),
                                      topology_.node_name(d), path_index, n));
  }
  return start_copy(s, d, route_of(s, d, path_index), static_cast<double>(bytes.count()), listener, tag, label, 0);
}

SimPlatform::StepRoute SimPlatform::step_route(int src_gpu, int dst_gpu) {
  const int s = topology_.gpu_node(src_gpu), d = topology_.gpu_node(dst_gpu);
  return {s, d, route_of(s, d, 0)};
}

uint32_t SimPlatform::route_of(int s, int d, int path_index) {
  const bool across = s != d && topology_.nodes() > 1 && !topology_.same_box(s, d);
  return across ? kOwnRoute : cached_route(s, d, path_index);
}

// The one path of every copy: its route's class, an activity slot, a record when logging, and a
// place in the latency lane of its route.
ActivityId SimPlatform::start_copy(int s, int d, uint32_t route_id, double bytes, CompletionListener& listener,
                                   uint64_t tag, std::string_view label, ActivityId parent) {
  const bool across = route_id == kOwnRoute;
  const uint32_t slot = new_activity_slot();
  Activity& a = activities_[slot];
  a.kind = ActivityKind::copy;
  a.listener = &listener;
  a.tag = tag;
  a.id = next_activity_id_++;
  a.route = route_id;
  a.amount = bytes;
  Time latency;
  uint32_t lane = 0;
  if (across) {
    a.cls = fabric_class(s, d, a, latency);
    a.ephemeral_class = true;
    lane = lane_for(latency);
  } else {
    const CachedRoute& route = routes_[route_id];
    a.cls = route.cls;
    a.ephemeral_class = false;
    latency = route.latency;
    lane = route.lane;
  }
  if (log_) {
    a.record = new_record(ActivityKind::copy, label, topology_.node_name(s), topology_.node_name(d));
    a.record->parent = parent;
    a.record->bytes = bytes;
    const std::vector<uint32_t>& dirs = directions_of(a);
    a.record->links.assign(dirs.begin(), dirs.end());
  }
  begin_after(lane, latency, slot);
  return a.id;
}

ActivityId SimPlatform::launch(GpuId gpu, PartitionId partition, const KernelProfile& kernel,
                               CompletionListener& listener, uint64_t tag) {
  check_gpu(gpu);
  if (!(kernel.flops >= 0) || !(kernel.dram_bytes >= 0) || !std::isfinite(kernel.flops) ||
      !std::isfinite(kernel.dram_bytes))
    throw PlatformError(fmt::format("kernel '{}': flops and dram_bytes must be finite and >= 0", kernel.name));
  if (!(kernel.solo_s >= 0) || !std::isfinite(kernel.solo_s) || (kernel.solo_s > 0 && (kernel.flops > 0 || kernel.dram_bytes > 0)))
    throw PlatformError(fmt::format("kernel '{}': solo_s must be finite and >= 0, and a kernel described by time has no flops or dram_bytes", kernel.name));
  if (!(kernel.block_s >= 0) || !std::isfinite(kernel.block_s))
    throw PlatformError(fmt::format("kernel '{}': block_s must be finite and >= 0", kernel.name));
  const GpuSpec& g = cluster_gpu(spec_, gpu);
  // A kernel described by time is compute: it draws the whole GPU's FLOP/s for solo_s alone.
  const double flops = kernel.solo_s > 0 ? kernel.solo_s * g.peak_flops : kernel.flops;
  const Partition* part = nullptr;
  if (partition != kWholeGpu) {
    if (partition < 0 || partition >= static_cast<PartitionId>(partitions_.size()) ||
        partitions_[partition].gpu != gpu)
      throw PlatformError(fmt::format("partition {} does not exist on GPU {}", partition, gpu));
    part = &partitions_[partition];
  }
  // Solo time on the whole GPU normalises the rate: a kernel's work is its solo time in
  // picoseconds, done at 1e12 per second (λ = 1) when it runs at solo speed. Picoseconds, not
  // seconds: the solver finishes a flow once less than ~1e-9 of its unit is left, which in
  // seconds let a short kernel end up to 1 ns early (property test, seed 2204).
  const double t0 = kernel.solo_s > 0 ? kernel.solo_s : std::max(flops / g.peak_flops, kernel.dram_bytes / g.hbm_Bps);
  const double work_ps = t0 * 1e12;
  std::vector<FlowElement> elements;
  double bound = FlowSolver::kUnbounded;
  if (t0 > 0) {
    const ConstraintId sm = part ? part->sms : gpus_[gpu].sm_pool;
    if (flops > 0) elements.push_back({sm, flops / work_ps});
    if (kernel.dram_bytes > 0) {
      elements.push_back({gpus_[gpu].hbm, kernel.dram_bytes / work_ps});
      if (part) elements.push_back({part->bandwidth, kernel.dram_bytes / work_ps});
      // Grids (max_sms > 0, the kernel model's kernels) on a partition draw together at most what
      // its SMs keep in flight. A kernel given as "all it is given" (max_sms 0: the overlap
      // runner's comm HBM traffic, kernels described by time) is not SM-capped [simplification].
      if (part && kernel.max_sms > 0 && g.bw_per_sm_Bps > 0)
        elements.push_back({part->sm_bandwidth, kernel.dram_bytes / work_ps});
    }
    if (kernel.max_sms > 0 && kernel.max_sms < g.sms && flops > 0)
      bound = (g.peak_flops * kernel.max_sms / g.sms) / (flops / work_ps);
    // A grid of max_sms SMs draws at most max_sms·bw_per_SM from DRAM (models/kernel_time.h); the
    // bound is set only where it is below HBM (elsewhere the HBM constraint binds first).
    if (kernel.max_sms > 0 && kernel.dram_bytes > 0 && kernel.max_sms * g.bw_per_sm_Bps < g.hbm_Bps &&
        g.bw_per_sm_Bps > 0)
      bound = std::min(bound, kernel.max_sms * g.bw_per_sm_Bps / (kernel.dram_bytes / work_ps));
    // A grid near the ridge point overlaps its compute with its memory traffic imperfectly: alone on
    // its SMs (and its partition's bandwidth share) it runs at most at the rate that makes its time
    // models/kernel_time.h's smoothed (T_comp^p + T_mem^p)^(1/p). The flow solver's shares lower
    // each resource's rate further under contention; the smoothing is charged on the solo speed
    // only [simplification].
    if (kernel.max_sms > 0 && g.kernel_smoothing_p > 0) {
      const int s = std::min(kernel.max_sms, g.sms);
      double bw = (part ? part->spec.bandwidth_share : 1.0) * g.hbm_Bps;
      if (g.bw_per_sm_Bps > 0) bw = std::min(bw, s * g.bw_per_sm_Bps);
      const double solo = smoothed_max(flops / (g.peak_flops * s / g.sms), kernel.dram_bytes / bw, g.kernel_smoothing_p);
      bound = std::min(bound, work_ps / solo);
    }
  }
  const uint32_t slot = new_activity_slot();
  Activity& a = activities_[slot];
  a.kind = ActivityKind::kernel;
  a.listener = &listener;
  a.tag = tag;
  a.id = next_activity_id_++;
  a.amount = work_ps;
  a.route = UINT32_MAX;
  a.ephemeral_class = t0 > 0;
  a.cls = t0 > 0 ? solver_.make_class(elements, bound) : 0;
  a.gpu = gpu;
  a.partition = partition;
  a.sms = kernel.max_sms;
  a.block_s = kernel.block_s;
  a.dispatched = false;
  if (kernel.block_s > 0) {
    const int s = kernel.max_sms > 0 ? std::min(kernel.max_sms, g.sms) : g.sms;
    a.own_s = smoothed_max(flops / (g.peak_flops * s / g.sms), kernel.dram_bytes / g.hbm_Bps, g.kernel_smoothing_p);
  }
  if (log_) {
    a.record = new_record(ActivityKind::kernel, kernel.name, gpu_node_name(gpu), gpu_node_name(gpu));
    a.record->flops = flops;
    a.record->bytes = kernel.dram_bytes;
    if (part) a.record->partition = part->spec.name.empty() ? fmt::format("p{}", partition) : part->spec.name;
  }
  // The launch delay belongs to kernels described by work (the kernel model's grids). A kernel
  // described by time, or by work derived from a fitted time (launch_included), comes from curves
  // fitted to measured kernel times (models/gemm_cost.h's overhead_s, the layer fits) that already
  // include the launch: it starts at once.
  const bool timed = kernel.solo_s > 0 || kernel.launch_included;
  const Time launch_delay = timed ? Time() : Time::seconds(g.kernel_launch_s);
  begin_after(lane_for(launch_delay), launch_delay, slot);
  return a.id;
}

ActivityId SimPlatform::collective(CollectiveOp op, std::span<const GpuId> group, Bytes bytes,
                                   CollectiveAlgo algo, CompletionListener& listener, uint64_t tag,
                                   std::string_view label) {
  if (!runs(algo, op))
    throw PlatformError(fmt::format("the {} algorithm does not run {}", to_string(algo), to_string(op)));
  if (group.empty()) throw PlatformError("collective over an empty group");
  if (bytes.count() < 0) throw PlatformError("collective of a negative size");
  std::vector<GpuId> members(group.begin(), group.end());
  for (GpuId g : members) check_gpu(g);
  auto sorted = members;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    throw PlatformError("collective group names a GPU twice");
  const ActivityId id = next_activity_id_++;
  const int box_gpus = static_cast<int>(spec_.gpus.size());
  std::unique_ptr<FlowCollective> c;
  switch (algo) {
    case CollectiveAlgo::ring:
      if (op == CollectiveOp::broadcast || op == CollectiveOp::reduce) {
        std::vector<int> parent = TreeCollective::chain(members.size());
        c = std::make_unique<TreeCollective>(*this, op, std::move(members), bytes, std::move(parent), listener, tag, id);
      } else {
        c = std::make_unique<RingCollective>(*this, op, std::move(members), bytes, listener, tag, id);
      }
      break;
    case CollectiveAlgo::tree: {
      std::vector<int> parent = TreeCollective::nccl_tree(members, box_gpus);
      c = std::make_unique<TreeCollective>(*this, op, std::move(members), bytes, std::move(parent), listener, tag, id);
      break;
    }
    case CollectiveAlgo::p2p:
      c = std::make_unique<PairwiseCollective>(*this, op, std::move(members), bytes, listener, tag, id);
      break;
    case CollectiveAlgo::hierarchical:
      c = std::make_unique<HierarchicalCollective>(*this, op, std::move(members), bytes, box_gpus, listener, tag, id);
      break;
  }
  FlowCollective* raw = c.get();
  collectives_.push_back(std::move(c));
  if (log_) {
    auto r = new_record(ActivityKind::collective, label.empty() ? std::string_view(to_string(op)) : label,
                        gpu_node_name(raw->group().front()), gpu_node_name(raw->group().back()));
    r->id = id;
    r->bytes = static_cast<double>(bytes.count());
    r->start = now();
    collective_records_.emplace(id, std::move(r));
  }
  raw->start();
  return id;
}

void SimPlatform::start_child(std::unique_ptr<FlowCollective> c) {
  FlowCollective* raw = c.get();
  collectives_.push_back(std::move(c));
  raw->start();
}

void SimPlatform::finish_collective(FlowCollective* c) {
  if (!c->child()) {
    ++finished_by_kind_[static_cast<int>(ActivityKind::collective)];
    ++finished_;
    last_finish_ = std::max(last_finish_, now());
    if (log_) {
      auto it = collective_records_.find(c->id());
      it->second->end = now();
      log_->records.push_back(std::move(*it->second));
      collective_records_.erase(it);
    }
  }
  CompletionListener& listener = c->listener();
  const uint64_t tag = c->tag();
  // Schedules finish in roughly the order they began: search from the back.
  auto it = std::find_if(collectives_.rbegin(), collectives_.rend(), [&](auto& p) { return p.get() == c; });
  std::swap(*it, collectives_.back());
  collectives_.pop_back();  // destroys c
  listener.on_complete(tag);
}

uint32_t SimPlatform::lane_for(Time latency) {
  auto [it, fresh] = lane_index_.try_emplace(latency.ps(), static_cast<uint32_t>(lanes_.size()));
  if (fresh) lanes_.emplace_back();
  return it->second;
}

inline void SimPlatform::begin_after(uint32_t lane, Time latency, uint32_t slot) {
  LatencyLane& l = lanes_[lane];
  const Time at = now() + latency;
  l.waiting.emplace_back(at, slot);
  if (!l.scheduled) {
    l.scheduled = true;
    engine_.schedule_at(at, *this, (kLane << kKindShift) | lane);
  }
}

void SimPlatform::drain_lane(uint32_t lane) {
  // begin() may call listeners that issue more work into this very lane (zero-byte copies) or
  // make new lanes, so the lane is re-read on every iteration.
  lanes_[lane].scheduled = false;
  for (;;) {
    LatencyLane& l = lanes_[lane];
    if (l.empty() || l.waiting[l.head].first > now()) break;
    begin(l.waiting[l.head++].second);
  }
  LatencyLane& l = lanes_[lane];
  if (l.empty()) {
    l.waiting.clear();
    l.head = 0;
    return;
  }
  // A lane that never empties (a steady stream) drops its begun prefix once it is half the lane.
  if (l.head >= 256 && 2 * l.head >= l.waiting.size()) {
    l.waiting.erase(l.waiting.begin(), l.waiting.begin() + static_cast<std::ptrdiff_t>(l.head));
    l.head = 0;
  }
  if (!l.scheduled) {
    l.scheduled = true;
    engine_.schedule_at(l.waiting[l.head].first, *this, (kLane << kKindShift) | lane);
  }
}

int SimPlatform::pool_sms(GpuId gpu, PartitionId partition) const {
  if (partition != kWholeGpu) return partitions_[partition].spec.sms;
  return cluster_gpu(spec_, gpu).sms - gpus_[gpu].reserved_sms;
}

double SimPlatform::dispatch_wait(const Activity& a) const {
  const int pool = pool_sms(a.gpu, a.partition);
  const auto held_by = [&](const Activity& r) { return r.sms > 0 ? std::min(r.sms, pool) : pool; };
  const int need = a.sms > 0 ? std::min(a.sms, pool) : pool;
  const std::vector<uint32_t>& resident = gpus_[a.gpu].resident_kernels;
  int held = 0;
  for (uint32_t r : resident) {
    const Activity& k = activities_[r];
    if (k.partition == a.partition) held += held_by(k);
  }
  const int overlap = need - std::max(0, pool - held);
  if (overlap <= 0 || need <= 0) return 0;
  double wait = 0;
  for (uint32_t r : resident) {
    const Activity& k = activities_[r];
    if (k.partition != a.partition) continue;
    const double f = static_cast<double>(overlap) * held_by(k) / held / need;
    wait = std::max(wait, dispatch_wait_s(f, k.block_s, (now() - k.began).to_seconds(), a.own_s));
  }
  return wait;
}

void SimPlatform::begin(uint32_t slot) {
  Activity& a = activities_[slot];
  if (a.kind == ActivityKind::kernel && a.block_s > 0) {
    if (!a.dispatched) {
      a.dispatched = true;
      const Time wait = Time::seconds(dispatch_wait(a));
      if (wait > Time::zero()) {
        call_at(now() + wait, dispatch_wake_, slot);
        return;
      }
    }
    a.began = now();
    gpus_[a.gpu].resident_kernels.push_back(slot);
  }
  if (a.record) a.record->start = now();
  if (a.route != UINT32_MAX) {
    for (uint32_t d : directions_of(a)) {
      LinkUsage& u = link_usage_[d];
      if (u.active++ == 0) u.busy_since = now();
    }
  }
  if (a.amount <= 0) {  // nothing to move: done after the latency
    complete(slot);
    return;
  }
  solver_.start(a.cls, a.amount, slot, now());
  request_solve();
}

void SimPlatform::complete(uint32_t slot) {
  Activity& a = activities_[slot];
  if (a.ephemeral_class) solver_.release_class(a.cls);
  if (a.kind == ActivityKind::kernel && a.block_s > 0) {
    std::vector<uint32_t>& resident = gpus_[a.gpu].resident_kernels;
    resident.erase(std::find(resident.begin(), resident.end(), slot));
  }
  if (a.route != UINT32_MAX) {
    for (uint32_t d : directions_of(a)) {
      LinkUsage& u = link_usage_[d];
      u.bytes += a.amount;
      ++u.transfers;
      if (--u.active == 0) u.busy += now() - u.busy_since;
    }
  }
  ++finished_by_kind_[static_cast<int>(a.kind)];
  if (a.kind == ActivityKind::copy) bytes_copied_ += a.amount;
  ++finished_;
  last_finish_ = std::max(last_finish_, now());
  if (a.record) {
    a.record->id = a.id;
    a.record->end = now();
    log_->records.push_back(std::move(*a.record));
    a.record.reset();
  }
  CompletionListener* listener = a.listener;
  const uint64_t tag = a.tag;
  free_slots_.push_back(slot);
  listener->on_complete(tag);  // may start new activities (and reuse the slot)
}

void SimPlatform::schedule_solve() {
  engine_.schedule_at(now(), *this, kSolve << kKindShift, kSolvePriority);
}

void SimPlatform::reschedule_completion() {
  const Time next = solver_.next_completion();
  if (next == completion_at_ || next == Time::max()) {
    completion_at_ = next;
    return;
  }
  completion_at_ = next;
  ++completion_generation_;
  engine_.schedule_at(next, *this, (kCompletion << kKindShift) | (completion_generation_ & kPayloadMask),
                      kCompletionPriority);
}

void SimPlatform::handle_event(uint64_t tag) {
  const uint64_t payload = tag & kPayloadMask;
  switch (tag >> kKindShift) {
    case kLane:
      drain_lane(static_cast<uint32_t>(payload));
      break;
    case kTimer: {
      Timer t = timers_[payload];
      free_timers_.push_back(static_cast<uint32_t>(payload));
      t.listener->on_complete(t.tag);
      break;
    }
    case kSolve:
      solve_pending_ = false;
      solver_.solve(now());
      reschedule_completion();
      break;
    case kCompletion: {
      if (payload != (completion_generation_ & kPayloadMask)) break;  // superseded
      completion_at_ = Time::max();
      completed_scratch_.clear();
      solver_.collect_completed(now(), completed_scratch_);
      // Copy first: completion callbacks may start activities and collect again later.
      std::vector<uint64_t> done;
      done.swap(completed_scratch_);
      for (uint64_t slot : done) complete(static_cast<uint32_t>(slot));
      // With no flow left running no rate is wanted until the next start, which asks for its
      // own solve; the emptied classes stay dirty and seed that one (solve_due()). So a ring
      // step (all of its copies end at once) costs one solve, not two: the same rates, one
      // event fewer.
      if (solve_due()) request_solve();
      else reschedule_completion();
      done.clear();
      completed_scratch_.swap(done);
      break;
    }
  }
}

// --- memory -------------------------------------------------------------------------------------

Platform::AllocationId SimPlatform::allocate(GpuId gpu, Bytes bytes) {
  check_gpu(gpu);
  if (bytes.count() < 0) throw PlatformError("allocation of a negative size");
  GpuState& g = gpus_[gpu];
  const int64_t cap = cluster_gpu(spec_, gpu).memory_bytes;
  if (g.memory_used + bytes.count() > cap)
    throw OutOfMemoryError(fmt::format("GPU {} ({}): cannot allocate {}: {} capacity, {} in use", gpu,
                                       cluster_gpu(spec_, gpu).model, gib(bytes.count()), gib(cap), gib(g.memory_used)));
  g.memory_used += bytes.count();
  const AllocationId id = next_allocation_++;
  allocations_.emplace(id, std::make_pair(gpu, bytes.count()));
  return id;
}

void SimPlatform::release(AllocationId allocation) {
  auto it = allocations_.find(allocation);
  if (it == allocations_.end()) throw PlatformError(fmt::format("allocation {} is not live", allocation));
  gpus_[it->second.first].memory_used -= it->second.second;
  allocations_.erase(it);
}

Bytes SimPlatform::memory_used(GpuId gpu) const {
  check_gpu(gpu);
  return Bytes(gpus_[gpu].memory_used);
}

// --- partitions ---------------------------------------------------------------------------------

PartitionId SimPlatform::create_partition(GpuId gpu, const PartitionSpec& spec) {
  check_gpu(gpu);
  const GpuSpec& g = cluster_gpu(spec_, gpu);
  GpuState& st = gpus_[gpu];
  if (spec.sms <= 0 || st.reserved_sms + spec.sms > g.sms)
    throw PlatformError(fmt::format("GPU {}: cannot reserve {} SMs for a partition ({} of {} already reserved)",
                                    gpu, spec.sms, st.reserved_sms, g.sms));
  if (!(spec.bandwidth_share > 0) || spec.bandwidth_share > 1)
    throw PlatformError(fmt::format("GPU {}: partition bandwidth share {} is not in (0, 1]", gpu, spec.bandwidth_share));
  st.reserved_sms += spec.sms;
  solver_.set_capacity(st.sm_pool, g.peak_flops * (g.sms - st.reserved_sms) / g.sms);
  Partition p{gpu, spec, solver_.add_constraint(g.peak_flops * spec.sms / g.sms),
              solver_.add_constraint(g.hbm_Bps * spec.bandwidth_share),
              solver_.add_constraint(partition_sm_bandwidth_Bps(g, spec))};
  partitions_.push_back(std::move(p));
  if (solver_.needs_solve()) request_solve();
  return static_cast<PartitionId>(partitions_.size() - 1);
}

void SimPlatform::resize_partition(PartitionId partition, const PartitionSpec& spec) {
  if (partition < 0 || partition >= static_cast<PartitionId>(partitions_.size()))
    throw PlatformError(fmt::format("partition {} does not exist", partition));
  Partition& p = partitions_[partition];
  const GpuSpec& g = cluster_gpu(spec_, p.gpu);
  GpuState& st = gpus_[p.gpu];
  const int others = st.reserved_sms - p.spec.sms;
  if (spec.sms <= 0 || others + spec.sms > g.sms)
    throw PlatformError(fmt::format("GPU {}: cannot resize partition {} to {} SMs ({} reserved by others of {})",
                                    p.gpu, partition, spec.sms, others, g.sms));
  if (!(spec.bandwidth_share > 0) || spec.bandwidth_share > 1)
    throw PlatformError(fmt::format("GPU {}: partition bandwidth share {} is not in (0, 1]", p.gpu, spec.bandwidth_share));
  st.reserved_sms = others + spec.sms;
  const std::string name = p.spec.name;
  p.spec = spec;
  if (p.spec.name.empty()) p.spec.name = name;
  solver_.set_capacity(st.sm_pool, g.peak_flops * (g.sms - st.reserved_sms) / g.sms);
  solver_.set_capacity(p.sms, g.peak_flops * spec.sms / g.sms);
  solver_.set_capacity(p.bandwidth, g.hbm_Bps * spec.bandwidth_share);
  solver_.set_capacity(p.sm_bandwidth, partition_sm_bandwidth_Bps(g, spec));
  if (solver_.needs_solve()) request_solve();
}

}  // namespace parallax

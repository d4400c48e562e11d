// File: tests/property/checked_platform.cpp
#include "tests/property/checked_platform.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace parallax::property {

namespace {
// The platform solves at priority 255, the last at an instant; a check queued behind it at the
// same priority runs after the solve, and queues itself again if something dirtied the solver in
// between.
constexpr Priority kAfterSolve = 255;
}  // namespace

CheckedPlatform::CheckedPlatform(Engine& engine, SimPlatform& inner)
    : engine_(engine),
      inner_(inner),
      reserved_(static_cast<size_t>(inner.gpu_count()), 0),
      allocated_(static_cast<size_t>(inner.gpu_count()), 0) {}

uint64_t CheckedPlatform::relay(CompletionListener& listener, uint64_t tag, Kind kind) {
  Relay r;
  r.listener = &listener;
  r.tag = tag;
  r.kind = kind;
  r.issued = now();
  relays_.push_back(r);
  return relays_.size() - 1;
}

void CheckedPlatform::call_at(Time at, CompletionListener& listener, uint64_t tag) {
  const uint64_t i = relay(listener, tag, Kind::timer);
  relays_[i].due = at;
  ++counts_.timers;
  inner_.call_at(at, *this, i);
}

ActivityId CheckedPlatform::copy(Endpoint src, Endpoint dst, Bytes bytes, CompletionListener& listener,
                                 uint64_t tag, std::string_view label) {
  return copy_over(src, dst, 0, bytes, listener, tag, label);
}

ActivityId CheckedPlatform::copy_over(Endpoint src, Endpoint dst, int path_index, Bytes bytes,
                                      CompletionListener& listener, uint64_t tag, std::string_view label) {
  const uint64_t i = relay(listener, tag, Kind::copy);
  try {
    const ActivityId id = inner_.copy_over(src, dst, path_index, bytes, *this, i, label);
    ++counts_.copies;
    check_after_solve();
    return id;
  } catch (const PlatformError&) {
    relays_[i].completions = 1;  // refused: nothing to wait for
    throw;
  }
}

int CheckedPlatform::pool_sms(GpuId gpu, PartitionId partition) const {
  if (partition != kWholeGpu) return partitions_[static_cast<size_t>(partition)].sms;
  return inner_.gpu(gpu).sms - reserved_[static_cast<size_t>(gpu)];
}

double CheckedPlatform::pool_share(PartitionId partition) const {
  return partition == kWholeGpu ? 1.0 : partitions_[static_cast<size_t>(partition)].share;
}

ActivityId CheckedPlatform::launch(GpuId gpu, PartitionId partition, const KernelProfile& kernel,
                                   CompletionListener& listener, uint64_t tag) {
  const uint64_t i = relay(listener, tag, Kind::kernel);
  ActivityId id = 0;
  try {
    id = inner_.launch(gpu, partition, kernel, *this, i);
  } catch (const PlatformError&) {
    relays_[i].completions = 1;
    throw;
  }
  const bool known_partition = partition == kWholeGpu ||
                               (partition >= 0 && static_cast<size_t>(partition) < partitions_.size() &&
                                partitions_[static_cast<size_t>(partition)].gpu == gpu);
  if (!known_partition) ADD_FAILURE() << "launch on partition " << partition << " of GPU " << gpu << " was accepted";
  Relay& r = relays_[i];
  r.gpu = gpu;
  r.partition = partition;
  r.profile = kernel;
  if (known_partition) {
    r.most_sms = pool_sms(gpu, partition);
    r.most_share = pool_share(partition);
  }
  if (partition != kWholeGpu) ++counts_.kernels_on_partitions;
  if (known_partition && r.most_sms == 0) ++counts_.kernels_on_empty_pool;
  running_kernels_.push_back(i);
  ++counts_.kernels;
  check_after_solve();
  return id;
}

ActivityId CheckedPlatform::collective(CollectiveOp op, std::span<const GpuId> group, Bytes bytes,
                                       CollectiveAlgo algo, CompletionListener& listener, uint64_t tag,
                                       std::string_view label) {
  const uint64_t i = relay(listener, tag, Kind::collective);
  try {
    const ActivityId id = inner_.collective(op, group, bytes, algo, *this, i, label);
    ++counts_.collectives;
    check_after_solve();
    return id;
  } catch (const PlatformError&) {
    relays_[i].completions = 1;
    throw;
  }
}

void CheckedPlatform::on_complete(uint64_t index) {
  const Time t = now();
  trace_.emplace_back(index, t.ps());
  if (t < last_callback_) ADD_FAILURE() << "time went back from " << last_callback_.ps() << " to " << t.ps() << " ps";
  last_callback_ = t;
  Relay& r = relays_.at(index);
  if (++r.completions != 1) ADD_FAILURE() << "activity " << index << " completed " << r.completions << " times";
  if (t < r.issued) ADD_FAILURE() << "activity " << index << " completed before it was issued";
  if (r.kind == Kind::timer && t != r.due)
    ADD_FAILURE() << "timer " << index << " due at " << r.due.ps() << " ps fired at " << t.ps() << " ps";
  if (r.kind == Kind::kernel) {
    running_kernels_.erase(std::find(running_kernels_.begin(), running_kernels_.end(), index));
    check_kernel_bound(r);
  }
  check_after_solve();
  r.listener->on_complete(r.tag);  // last: it may issue more work (and grow relays_)
}

void CheckedPlatform::check_kernel_bound(const Relay& r) const {
  const GpuSpec& g = inner_.gpu(r.gpu);
  const KernelProfile& k = r.profile;
  int sms = r.most_sms;
  if (k.max_sms > 0) sms = std::min(sms, k.max_sms);
  double bound_s = 0;
  if (k.flops > 0) {
    bound_s = sms > 0 ? k.flops / (g.peak_flops * sms / g.sms) : std::numeric_limits<double>::infinity();
  }
  // Described by time: solo_s on the whole GPU, longer on fewer SMs.
  if (k.solo_s > 0) bound_s = sms > 0 ? k.solo_s * g.sms / sms : std::numeric_limits<double>::infinity();
  if (k.dram_bytes > 0) bound_s = std::max(bound_s, k.dram_bytes / (g.hbm_Bps * r.most_share));
  const Time took = now() - r.issued;
  if (!std::isfinite(bound_s)) {
    ADD_FAILURE() << "kernel '" << k.name << "' (" << k.flops << " FLOP) finished although its pool never had an SM";
    return;
  }
  const Time bound = Time::seconds(g.kernel_launch_s) + Time::seconds(bound_s);
  // 2 ps: the launch delay and the solver's finish are each rounded to the picosecond.
  if (took.ps() + 2 + static_cast<int64_t>(static_cast<double>(bound.ps()) * 1e-9) < bound.ps())
    ADD_FAILURE() << "kernel '" << k.name << "' on GPU " << r.gpu << " partition " << r.partition << " took "
                  << took.ps() << " ps, below its roofline bound " << bound.ps() << " ps (" << k.flops << " FLOP, "
                  << k.dram_bytes << " B, at most " << sms << " SMs, share " << r.most_share << ")";
}

void CheckedPlatform::widen_running_kernels(GpuId gpu) {
  for (uint64_t i : running_kernels_) {
    Relay& r = relays_[i];
    if (r.gpu != gpu) continue;
    r.most_sms = std::max(r.most_sms, pool_sms(gpu, r.partition));
    r.most_share = std::max(r.most_share, pool_share(r.partition));
  }
}

// --- memory ---------------------------------------------------------------------------------------

Platform::AllocationId CheckedPlatform::allocate(GpuId gpu, Bytes bytes) {
  if (gpu < 0 || gpu >= gpu_count()) {
    try {
      inner_.allocate(gpu, bytes);
    } catch (const PlatformError&) {
      ++counts_.allocations_refused;
      throw;
    }
    ADD_FAILURE() << "allocation on GPU " << gpu << " (of " << gpu_count() << ") was accepted";
    throw PlatformError("unknown GPU accepted");
  }
  const size_t g = static_cast<size_t>(gpu);
  const int64_t capacity = inner_.gpu(gpu).memory_bytes;
  const int64_t before = inner_.memory_used(gpu).count();
  if (before != allocated_[g]) ADD_FAILURE() << "GPU " << gpu << ": memory_used " << before << " != live allocations " << allocated_[g];
  const bool fits = bytes.count() >= 0 && bytes.count() <= capacity - before;
  try {
    const AllocationId id = inner_.allocate(gpu, bytes);
    if (!fits) ADD_FAILURE() << "GPU " << gpu << ": " << bytes.count() << " B allocated with " << before << " of " << capacity << " in use";
    if (!allocations_.emplace(id, std::make_pair(gpu, bytes.count())).second) ADD_FAILURE() << "allocation id " << id << " given twice";
    allocated_[g] += bytes.count();
    if (inner_.memory_used(gpu).count() != allocated_[g] || allocated_[g] > capacity)
      ADD_FAILURE() << "GPU " << gpu << ": memory_used " << inner_.memory_used(gpu).count() << ", live allocations "
                    << allocated_[g] << ", capacity " << capacity;
    return id;
  } catch (const OutOfMemoryError&) {
    ++counts_.allocations_refused;
    if (fits || bytes.count() < 0) ADD_FAILURE() << "GPU " << gpu << ": OutOfMemoryError for " << bytes.count() << " B with " << before << " of " << capacity << " in use";
    if (inner_.memory_used(gpu).count() != before) ADD_FAILURE() << "GPU " << gpu << ": a refused allocation changed memory_used";
    throw;
  } catch (const PlatformError&) {
    ++counts_.allocations_refused;
    if (bytes.count() >= 0) ADD_FAILURE() << "GPU " << gpu << ": " << bytes.count() << " B refused with a PlatformError that is not OutOfMemoryError";
    if (inner_.memory_used(gpu).count() != before) ADD_FAILURE() << "GPU " << gpu << ": a refused allocation changed memory_used";
    throw;
  }
}

void CheckedPlatform::release(AllocationId allocation) {
  auto it = allocations_.find(allocation);
  try {
    inner_.release(allocation);
  } catch (const PlatformError&) {
    if (it != allocations_.end()) ADD_FAILURE() << "release of live allocation " << allocation << " refused";
    throw;
  }
  if (it == allocations_.end()) {
    ADD_FAILURE() << "release of allocation " << allocation << ", not live, accepted";
    return;
  }
  const size_t g = static_cast<size_t>(it->second.first);
  allocated_[g] -= it->second.second;
  allocations_.erase(it);
  if (inner_.memory_used(static_cast<GpuId>(g)).count() != allocated_[g])
    ADD_FAILURE() << "GPU " << g << ": memory_used " << inner_.memory_used(static_cast<GpuId>(g)).count()
                  << " != live allocations " << allocated_[g] << " after a release";
}

// --- partitions -----------------------------------------------------------------------------------

// The documented rules (sim_platform.cpp, platform.h): SMs in [1, unreserved], share in (0, 1].
bool CheckedPlatform::legal_partition(GpuId gpu, int others_reserved, const PartitionSpec& spec) const {
  return spec.sms > 0 && others_reserved + spec.sms <= inner_.gpu(gpu).sms && spec.bandwidth_share > 0 &&
         spec.bandwidth_share <= 1;
}

void CheckedPlatform::check_partition_accounting(GpuId gpu) const {
  int sum = 0;
  for (const PartitionState& p : partitions_)
    if (p.gpu == gpu) sum += p.sms;
  if (sum != reserved_[static_cast<size_t>(gpu)] || sum > inner_.gpu(gpu).sms)
    ADD_FAILURE() << "GPU " << gpu << ": partitions hold " << sum << " SMs of " << inner_.gpu(gpu).sms;
  for (const PartitionState& p : partitions_)
    if (p.gpu == gpu && !(p.share > 0 && p.share <= 1)) ADD_FAILURE() << "GPU " << gpu << ": a partition's bandwidth share is " << p.share;
}

PartitionId CheckedPlatform::create_partition(GpuId gpu, const PartitionSpec& spec) {
  const bool known_gpu = gpu >= 0 && gpu < gpu_count();
  const bool legal = known_gpu && legal_partition(gpu, reserved_[static_cast<size_t>(gpu)], spec);
  PartitionId id = kWholeGpu;
  try {
    id = inner_.create_partition(gpu, spec);
  } catch (const PlatformError& e) {
    ++counts_.partitions_refused;
    if (legal) ADD_FAILURE() << "legal partition of " << spec.sms << " SMs, share " << spec.bandwidth_share << " on GPU " << gpu << " refused: " << e.what();
    throw;
  }
  if (!legal) {
    ADD_FAILURE() << "illegal partition of " << spec.sms << " SMs, share " << spec.bandwidth_share << " on GPU " << gpu << " accepted";
    return id;
  }
  if (id != static_cast<PartitionId>(partitions_.size())) ADD_FAILURE() << "partition id " << id << " is not the next one";
  partitions_.push_back({gpu, spec.sms, spec.bandwidth_share});
  reserved_[static_cast<size_t>(gpu)] += spec.sms;
  check_partition_accounting(gpu);
  widen_running_kernels(gpu);
  check_after_solve();
  return id;
}

void CheckedPlatform::resize_partition(PartitionId partition, const PartitionSpec& spec) {
  const bool known = partition >= 0 && static_cast<size_t>(partition) < partitions_.size();
  bool legal = false;
  if (known) {
    const PartitionState& p = partitions_[static_cast<size_t>(partition)];
    legal = legal_partition(p.gpu, reserved_[static_cast<size_t>(p.gpu)] - p.sms, spec);
  }
  try {
    inner_.resize_partition(partition, spec);
  } catch (const PlatformError& e) {
    ++counts_.partitions_refused;
    if (legal) ADD_FAILURE() << "legal resize of partition " << partition << " to " << spec.sms << " SMs, share " << spec.bandwidth_share << " refused: " << e.what();
    throw;
  }
  if (!legal) {
    ADD_FAILURE() << "illegal resize of partition " << partition << " to " << spec.sms << " SMs, share " << spec.bandwidth_share << " accepted";
    return;
  }
  PartitionState& p = partitions_[static_cast<size_t>(partition)];
  reserved_[static_cast<size_t>(p.gpu)] += spec.sms - p.sms;
  p.sms = spec.sms;
  p.share = spec.bandwidth_share;
  check_partition_accounting(p.gpu);
  widen_running_kernels(p.gpu);
  check_after_solve();
}

// --- capacities after the solve -------------------------------------------------------------------

void CheckedPlatform::check_after_solve() {
  if (check_pending_) return;
  check_pending_ = true;
  engine_.schedule_at(engine_.now(), *this, 0, kAfterSolve);
}

void CheckedPlatform::handle_event(uint64_t) {
  const FlowSolver& s = inner_.solver();
  if (inner_.solve_due()) {
    engine_.schedule_at(engine_.now(), *this, 0, kAfterSolve);
    return;
  }
  check_pending_ = false;
  for (ConstraintId c = 0; c < s.constraint_count(); ++c) {
    ++counts_.capacity_checks;
    if (s.usage(c) > s.capacity(c) * (1 + 1e-9))
      ADD_FAILURE() << "constraint " << c << " at " << now().ps() << " ps: usage " << s.usage(c) << " > capacity "
                    << s.capacity(c);
  }
}

void CheckedPlatform::check_drained() const {
  for (size_t i = 0; i < relays_.size(); ++i)
    if (relays_[i].completions != 1)
      ADD_FAILURE() << "activity " << i << " (kind " << static_cast<int>(relays_[i].kind) << ", issued at "
                    << relays_[i].issued.ps() << " ps) completed " << relays_[i].completions << " times";
  EXPECT_TRUE(running_kernels_.empty());
  EXPECT_EQ(inner_.activities_started(), inner_.activities_finished());
  EXPECT_EQ(inner_.solver().active_flows(), 0u);
  EXPECT_EQ(engine_.pending(), 0u);
}

}  // namespace parallax::property

// File: tests/property/kernel_partition_invariants_test.cpp
// Invariants of SimPlatform's kernels, partitions and device memory under random machines and
// random scripts of requests, checked by CheckedPlatform (checked_platform.h) at every call and
// callback: SMs reserved per GPU within the device, illegal partitions refused with PlatformError
// (and legal ones accepted), every kernel finishing exactly once and not before its roofline bound
// on the SMs and bandwidth share it could use, allocated bytes within capacity, OutOfMemoryError
// exactly when an allocation would exceed it (accounting unchanged), solver capacities respected,
// time monotone, and the same seed giving the same callback trace twice.
//
// The machine: 1-4 GPUs on a crossbar (random figures, or those of an H100/H200/A100/L4), memory
// 1-192 GiB, launch delay 0 or 1-10 us. The script: 1-80 requests at times that often tie — kernel
// launches (on a random partition of the GPU or unpartitioned; compute-bound, memory-bound, empty,
// with or without an SM cap), partition creations and resizes (legal most of the time, illegal
// sizes and shares and unknown ids on purpose; a partition may take every unreserved SM, so that
// unpartitioned kernels wait), allocations sized near what is free (exactly free, one byte more,
// the whole capacity, negative) and releases (unknown ids too). Platform has no way to destroy a
// partition; shrinking one to a single SM stands for it, and a last request shrinks them all so
// that waiting unpartitioned kernels can finish.
//
// A failure names the seed; rerun one with PARALLAX_PROPERTY_SEED=N, or more seeds with
// PARALLAX_PROPERTY_RUNS=N (default 2000).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "sim/engine/engine.h"
#include "sim/engine/random_streams.h"
#include "sim/platform/anchor_topologies.h"
#include "sim/platform/sim_platform.h"
#include "tests/property/checked_platform.h"
#include "tests/property/property_seeds.h"

namespace parallax::property {
namespace {

int uniform_count(RandomStream& rng, int lo, int hi) {  // [lo, hi]
  return lo + static_cast<int>(rng.uniform_int(static_cast<uint64_t>(hi - lo + 1)));
}
double log_uniform(RandomStream& rng, double lo, double hi) { return std::exp(rng.uniform(std::log(lo), std::log(hi))); }

HardwareSpec random_kernel_machine(RandomStream& rng) {
  HardwareSpec spec = anchor_crossbar(uniform_count(rng, 1, 4), 100e9, 1e-6);
  for (GpuSpec& g : spec.gpus) {
    switch (rng.uniform_int(6)) {  // real figures now and then (REFERENCE.md §1)
      case 0: g.sms = 132; g.peak_flops = 989e12; g.hbm_Bps = 3.35e12; break;  // H100 SXM
      case 1: g.sms = 132; g.peak_flops = 989e12; g.hbm_Bps = 4.8e12; break;   // H200
      case 2: g.sms = 108; g.peak_flops = 312e12; g.hbm_Bps = 2.0e12; break;   // A100
      case 3: g.sms = 58; g.peak_flops = 121e12; g.hbm_Bps = 300e9; break;     // L4
      default:
        g.sms = uniform_count(rng, 1, 132);
        g.peak_flops = log_uniform(rng, 1e12, 1e15);
        g.hbm_Bps = log_uniform(rng, 1e11, 5e12);
        break;
    }
    g.memory_bytes = static_cast<int64_t>(log_uniform(rng, 1.0 * (1 << 30), 192.0 * (1 << 30)));
    g.kernel_launch_s = rng.uniform01() < 0.3 ? 0.0 : log_uniform(rng, 1e-6, 1e-5);
  }
  return spec;
}

// Runs a random script of requests against the platform, drawing each request when it is due
// (so that it can look at the partitions and allocations of that moment).
class ScriptDriver final : public CompletionListener {
 public:
  ScriptDriver(CheckedPlatform& platform, RandomStream& rng) : platform_(platform), rng_(rng) {
    const int requests = uniform_count(rng, 1, 80);
    Time last;
    for (int i = 0; i < requests; ++i) {
      // A coarse grid half of the time (ties), anywhere in [0, 5 ms] otherwise.
      const Time at = rng.uniform01() < 0.5 ? Time::us(static_cast<int64_t>(rng.uniform_int(6)) * 1000)
                                            : Time::ps(static_cast<int64_t>(rng.uniform_int(5'000'000'000)));
      platform_.call_at(at, *this, kRequest);
      last = std::max(last, at);
    }
    platform_.call_at(last + Time::us(1), *this, kShrinkAll);
  }

  int kernels_done() const { return kernels_done_; }
  int kernels_launched() const { return kernels_launched_; }

 private:
  static constexpr uint64_t kRequest = 0, kShrinkAll = 1, kKernelDone = 2;

  void on_complete(uint64_t tag) override {
    if (tag == kKernelDone) ++kernels_done_;
    else if (tag == kShrinkAll) shrink_all();
    else request();
  }

  GpuId any_gpu() { return static_cast<GpuId>(rng_.uniform_int(static_cast<uint64_t>(platform_.gpu_count()))); }

  void request() {
    const double u = rng_.uniform01();
    if (u < 0.45) launch();
    else if (u < 0.6) create();
    else if (u < 0.7) resize();
    else if (u < 0.88) allocate();
    else release();
  }

  void launch() {
    const GpuId g = any_gpu();
    PartitionId where = kWholeGpu;
    std::vector<PartitionId> mine;
    for (size_t p = 0; p < owner_.size(); ++p)
      if (owner_[p] == g) mine.push_back(static_cast<PartitionId>(p));
    if (!mine.empty() && rng_.uniform01() < 0.6) where = mine[rng_.uniform_int(mine.size())];
    KernelProfile k;
    k.name = "k";
    k.name += std::to_string(kernels_launched_);
    const double kind = rng_.uniform01();
    if (kind > 0.05) k.flops = kind < 0.35 ? 0.0 : log_uniform(rng_, 1e6, 1e13);
    if (kind > 0.05) k.dram_bytes = kind > 0.8 ? 0.0 : log_uniform(rng_, 1e3, 1e11);
    if (rng_.uniform01() < 0.4) k.max_sms = uniform_count(rng_, 1, platform_.gpu(g).sms + 8);
    platform_.launch(g, where, k, *this, kKernelDone);
    ++kernels_launched_;
  }

  // Legal most of the time; otherwise one documented rule broken (checked_platform.cpp says which
  // are legal and fails on any disagreement with the platform).
  PartitionSpec random_spec(int free_sms, bool legal) {
    PartitionSpec s;
    s.bandwidth_share = rng_.uniform01() < 0.2 ? 1.0 : rng_.uniform(0.01, 1.0);
    if (legal) {
      s.sms = rng_.uniform01() < 0.2 ? free_sms : uniform_count(rng_, 1, free_sms);
      return s;
    }
    s.sms = uniform_count(rng_, 1, std::max(1, free_sms));
    switch (rng_.uniform_int(5)) {
      case 0: s.sms = 0; break;
      case 1: s.sms = -uniform_count(rng_, 1, 10); break;
      case 2: s.sms = free_sms + uniform_count(rng_, 1, 10); break;
      case 3: s.bandwidth_share = rng_.uniform01() < 0.5 ? 0.0 : 1.0 + rng_.uniform(1e-9, 1.0); break;
      default: s.bandwidth_share = std::numeric_limits<double>::quiet_NaN(); break;
    }
    return s;
  }

  void create() {
    const GpuId g = any_gpu();
    const int sms = platform_.gpu(g).sms;
    const int free_sms = sms - platform_.reserved_sms(g);
    int count = 0;
    for (GpuId o : owner_) count += o == g;
    // Legal only while the last request can still shrink every partition to one SM and leave one.
    const bool legal = free_sms > 0 && count + 2 <= sms && rng_.uniform01() < 0.8;
    const PartitionSpec s = random_spec(free_sms, legal);
    try {
      platform_.create_partition(rng_.uniform01() < 0.03 ? platform_.gpu_count() : g, s);
      owner_.push_back(g);
    } catch (const PlatformError&) {
    }
  }

  void resize() {
    if (owner_.empty() || rng_.uniform01() < 0.05) {
      try {
        platform_.resize_partition(static_cast<PartitionId>(owner_.size()) + (rng_.uniform01() < 0.5 ? 0 : 7),
                                   {1, 1.0, ""});
      } catch (const PlatformError&) {
      }
      return;
    }
    const PartitionId p = static_cast<PartitionId>(rng_.uniform_int(owner_.size()));
    const GpuId g = owner_[static_cast<size_t>(p)];
    // This partition's own SMs count as free for its resize.
    const int free_sms = platform_.gpu(g).sms - platform_.reserved_sms(g) + platform_.partition_sms(p);
    const bool legal = rng_.uniform01() < 0.8;
    PartitionSpec s = random_spec(free_sms, legal);
    if (legal && rng_.uniform01() < 0.25) s.sms = 1;  // "destroy": give back all but one SM
    try {
      platform_.resize_partition(p, s);
    } catch (const PlatformError&) {
    }
  }

  void allocate() {
    const GpuId g = any_gpu();
    const int64_t cap = platform_.gpu(g).memory_bytes;
    const int64_t free_bytes = cap - platform_.memory_used(g).count();
    int64_t bytes = 0;
    switch (rng_.uniform_int(7)) {
      case 0: bytes = free_bytes; break;
      case 1: bytes = free_bytes + 1; break;
      case 2: bytes = cap; break;
      case 3: bytes = -static_cast<int64_t>(rng_.uniform_int(1000)) - 1; break;
      case 4: bytes = 0; break;
      default: bytes = static_cast<int64_t>(rng_.uniform(0, 0.7) * static_cast<double>(cap)); break;
    }
    try {
      live_.push_back(platform_.allocate(rng_.uniform01() < 0.03 ? -1 : g, Bytes(bytes)));
    } catch (const PlatformError&) {
    }
  }

  void release() {
    if (live_.empty() || rng_.uniform01() < 0.05) {
      try {
        platform_.release(1'000'000 + rng_.uniform_int(1000));
      } catch (const PlatformError&) {
      }
      return;
    }
    const size_t i = rng_.uniform_int(live_.size());
    platform_.release(live_[i]);
    live_.erase(live_.begin() + static_cast<std::ptrdiff_t>(i));
  }

  void shrink_all() {
    for (size_t p = 0; p < owner_.size(); ++p) platform_.resize_partition(static_cast<PartitionId>(p), {1, 1.0, ""});
  }

  CheckedPlatform& platform_;
  RandomStream& rng_;
  std::vector<GpuId> owner_;  // per partition id (the platform numbers them 0, 1, ...)
  std::vector<Platform::AllocationId> live_;
  int kernels_launched_ = 0, kernels_done_ = 0;

};

struct RunResult {
  std::vector<std::pair<uint64_t, int64_t>> trace;
  CheckedPlatform::Counts counts;
};

RunResult run_one(uint64_t seed) {
  RandomStreams streams(seed);
  const HardwareSpec spec = random_kernel_machine(streams.stream("machine"));
  Engine engine;
  SimPlatform sim(engine, spec);
  CheckedPlatform platform(engine, sim);
  ScriptDriver driver(platform, streams.stream("script"));
  engine.run();
  platform.check_drained();
  EXPECT_EQ(driver.kernels_done(), driver.kernels_launched());
  return {platform.trace(), platform.counts()};
}

TEST(KernelPartitionInvariants, RandomScripts) {
  const SeedRange seeds = property_seeds(2000);
  const uint64_t first = seeds.first, last = seeds.last;
  CheckedPlatform::Counts total;
  for (uint64_t seed = first; seed <= last; ++seed) {
    SCOPED_TRACE(seed_note(seed));
    const RunResult a = run_one(seed);
    const RunResult b = run_one(seed);
    EXPECT_EQ(a.trace, b.trace) << "two runs of one seed differ";
    if (::testing::Test::HasFailure()) return;  // the first failing seed is the useful one
    total.kernels += a.counts.kernels;
    total.kernels_on_partitions += a.counts.kernels_on_partitions;
    total.kernels_on_empty_pool += a.counts.kernels_on_empty_pool;
    total.timers += a.counts.timers;
    total.partitions_refused += a.counts.partitions_refused;
    total.allocations_refused += a.counts.allocations_refused;
    total.capacity_checks += a.counts.capacity_checks;
  }
  std::printf("seeds %llu..%llu: %llu kernels (%llu on partitions, %llu on a pool with no free SM), %llu refused partition requests, %llu refused allocations, %llu "
              "constraint checks\n",
              static_cast<unsigned long long>(first), static_cast<unsigned long long>(last),
              static_cast<unsigned long long>(total.kernels),
              static_cast<unsigned long long>(total.kernels_on_partitions),
              static_cast<unsigned long long>(total.kernels_on_empty_pool),
              static_cast<unsigned long long>(total.partitions_refused),
              static_cast<unsigned long long>(total.allocations_refused),
              static_cast<unsigned long long>(total.capacity_checks));
}

}  // namespace
}  // namespace parallax::property

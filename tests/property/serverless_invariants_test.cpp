// File: tests/property/serverless_invariants_test.cpp
// Every serverless policy (torpor, torpor-lru, torpor-fifo, native, keepalive, naive) as a
// Platform client under random setups: a node of 1-8 GPUs (H100 figures for the catalog's compute
// times, 8-80 GB each) behind PCIe switches with NVLink to GPU 0 (serverless_test_machine.h),
// 1-40 functions on 1-8 random catalog models (sim/policies/serverless/catalog_models.h) with
// SLOs scaled by 0.5-4, a random model-memory reserve (1 GiB to the GPU's memory) so that pools
// fill and evict, closed-form or all-platform execution, and 0-1500 arrivals Poisson, bursty
// (Gamma gaps, CV 4) or in tied bursts; half of the runs are cut at a random time.
//
// Checked for each seed and policy, on a CheckedPlatform (checked_platform.h: copies and kernels
// finishing once and not before their bounds, solver capacities, time monotone):
//  * every request accounted for: the node recorded exactly the arrivals up to the cut, in order,
//    and arrived = finished + dropped + queued + running, with outstanding() = queued + running
//    and the summary agreeing; a run to the end leaves nothing queued or running, and the
//    platform drained;
//  * GPU model memory never over-committed: every pool sample has used <= capacity and each
//    pool's peak <= its capacity;
//  * a finished request was dispatched after it arrived and finished after its dispatch;
//  * the same seed gives the same callback trace and the same request records twice.
// A failure names the policy and the seed; rerun one with PARALLAX_PROPERTY_SEED=N, or more with
// PARALLAX_PROPERTY_RUNS=N (default 40 seeds, each under every policy).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "sim/engine/engine.h"
#include "sim/engine/random_streams.h"
#include "sim/platform/sim_platform.h"
#include "sim/policies/serverless/node_links.h"
#include "sim/policies/serverless/policy_presets.h"
#include "sim/policies/serverless/serverless_metrics.h"
#include "sim/policies/serverless/serverless_node.h"
#include "sim/policies/serverless/serverless_test_machine.h"
#include "sim/scenario/model_catalog_reader.h"
#include "tests/property/checked_platform.h"
#include "tests/property/property_seeds.h"
#include "sim/experiment/serverless_sim.h"

namespace parallax::property {
namespace {

int uniform_count(RandomStream& rng, int lo, int hi) {  // [lo, hi]
  return lo + static_cast<int>(rng.uniform_int(static_cast<uint64_t>(hi - lo + 1)));
}
double log_uniform(RandomStream& rng, double lo, double hi) { return std::exp(rng.uniform(std::log(lo), std::log(hi))); }

struct Draw {
  HardwareSpec hw;
  std::vector<ServedModel> models;
  std::vector<ServedFunction> functions;
  std::vector<ServerlessArrival> arrivals;
  int64_t reserve_bytes = 0;
  bool closed_form = true;
  Time cut = Time::max();
};

Draw draw(uint64_t seed) {
  RandomStreams streams(seed);
  RandomStream& rng = streams.stream("serverless");
  Draw d;
  d.hw = serverless_test::machine(uniform_count(rng, 1, 8));
  const int64_t memory = static_cast<int64_t>(log_uniform(rng, 8e9, 80e9));
  for (GpuSpec& g : d.hw.gpus) {
    g.model = "H100-SXM5";  // the catalog's H100 column
    g.memory_bytes = memory;
  }
  const ModelCatalog& catalog = embedded_model_catalog();
  std::vector<std::string> names;
  for (int m = uniform_count(rng, 1, 8); m > 0; --m)
    names.push_back(catalog.models[rng.uniform_int(catalog.models.size())].name);
  d.models = served_models(names, d.hw.gpus.at(0));
  for (ServedModel& m : d.models) m.slo = Time::seconds(m.slo.to_seconds() * log_uniform(rng, 0.5, 4));
  const int functions = uniform_count(rng, 1, 40);
  for (int f = 0; f < functions; ++f) {
    ServedFunction fn;
    fn.name = "f";  // appended, not "f" + ...: g++ 12 warns falsely (-Wrestrict) on that at -O3
    fn.name += std::to_string(f);
    fn.model = static_cast<uint32_t>(rng.uniform_int(d.models.size()));
    d.functions.push_back(std::move(fn));
  }
  d.reserve_bytes = static_cast<int64_t>(log_uniform(rng, 1.0 * (1 << 30), static_cast<double>(memory)));
  d.closed_form = rng.uniform01() < 0.7;
  const int n = uniform_count(rng, 0, 1500);
  const double mean_gap_s = log_uniform(rng, 1e-4, 2e-2);
  const int kind = uniform_count(rng, 0, 2);
  double t = 0;
  for (int i = 0; i < n; ++i) {
    if (kind == 0) t += rng.exponential(mean_gap_s);
    else if (kind == 1) t += rng.gamma(1.0 / 16, 16 * mean_gap_s);  // CV 4
    else if (i % 10 == 0) t += 10 * mean_gap_s;                    // bursts of 10 at one instant
    d.arrivals.push_back({Time::seconds(t), static_cast<uint32_t>(rng.uniform_int(static_cast<uint64_t>(functions)))});
  }
  if (rng.uniform01() < 0.5) d.cut = Time::seconds(rng.uniform(0, std::max(t, 1e-3)));
  return d;
}

struct Outcome {
  std::vector<std::pair<uint64_t, int64_t>> trace;
  std::vector<RequestRecord> requests;
  ServerlessSummary summary;
};

Outcome run_one(std::string_view policy_name, const Draw& d, uint64_t seed) {
  Engine engine;
  SimPlatform sim(engine, d.hw);
  CheckedPlatform platform(engine, sim);
  ServerlessPolicy policy = serverless_policy_preset(policy_name);
  policy.reserve_bytes = d.reserve_bytes;
  policy.closed_form = d.closed_form;
  policy.record_timeline = true;
  policy.record_requests = true;
  RandomStreams streams(seed);
  ServerlessNode node(platform, policy, d.models, d.functions, node_links(platform), streams.stream("gpu_select"));
  node.start(d.arrivals);
  engine.run(d.cut);

  const std::vector<RequestRecord>& rs = node.requests();
  const size_t due = static_cast<size_t>(std::count_if(d.arrivals.begin(), d.arrivals.end(),
                                                       [&](const ServerlessArrival& a) { return a.at <= d.cut; }));
  EXPECT_EQ(rs.size(), due) << "requests recorded vs arrivals up to the cut";
  uint64_t by_state[5] = {0, 0, 0, 0, 0};
  for (size_t i = 0; i < rs.size(); ++i) {
    const RequestRecord& r = rs[i];
    ++by_state[static_cast<int>(r.state)];
    if (i < d.arrivals.size() && (r.arrival != d.arrivals[i].at || r.function != d.arrivals[i].function))
      ADD_FAILURE() << "request " << i << " is not arrival " << i;
    if (r.state == RequestState::finished && (r.dispatch < r.arrival || r.finish < r.dispatch))
      ADD_FAILURE() << "request " << i << ": arrival " << r.arrival.ps() << ", dispatch " << r.dispatch.ps()
                    << ", finish " << r.finish.ps() << " ps";
  }
  const uint64_t finished = by_state[static_cast<int>(RequestState::finished)];
  const uint64_t dropped = by_state[static_cast<int>(RequestState::dropped)];
  const uint64_t queued = by_state[static_cast<int>(RequestState::queued)];
  const uint64_t running = by_state[static_cast<int>(RequestState::running)];
  EXPECT_EQ(by_state[static_cast<int>(RequestState::pending)], 0u);
  EXPECT_EQ(rs.size(), finished + dropped + queued + running);
  EXPECT_EQ(node.outstanding(), queued + running);
  const ServerlessSummary s = summarise_serverless(node);
  EXPECT_EQ(s.arrived, rs.size());
  EXPECT_EQ(s.finished, finished);
  EXPECT_EQ(s.dropped, dropped);
  EXPECT_EQ(s.queued, queued + running);
  if (d.cut == Time::max()) {
    EXPECT_EQ(queued + running, 0u) << "the run drained with requests left";
    platform.check_drained();
  }
  for (int g = 0; g < sim.gpu_count(); ++g) {
    const GpuMemoryPool& pool = node.pool(g);
    EXPECT_LE(pool.peak_used_bytes(), pool.capacity_bytes()) << "GPU " << g;
    for (const PoolSample& p : node.pool_samples()[static_cast<size_t>(g)])
      if (p.used_bytes > pool.capacity_bytes() || p.used_bytes < 0)
        ADD_FAILURE() << "GPU " << g << " pool at " << p.at.ps() << " ps: " << p.used_bytes << " of "
                      << pool.capacity_bytes() << " bytes";
  }
  return {platform.trace(), rs, s};
}

bool same_records(const std::vector<RequestRecord>& a, const std::vector<RequestRecord>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].state != b[i].state || a[i].finish != b[i].finish || a[i].dispatch != b[i].dispatch || a[i].gpu != b[i].gpu)
      return false;
  return true;
}

TEST(ServerlessInvariants, EveryPolicyUnderRandomSetups) {
  const SeedRange seeds = property_seeds(40);
  std::map<std::string, std::array<uint64_t, 4>> totals;  // policy -> finished, dropped, left at the cut, evictions
  for (uint64_t seed = seeds.first; seed <= seeds.last; ++seed) {
    const Draw d = draw(seed);
    for (std::string_view name : serverless_policy_names()) {
      SCOPED_TRACE(seed_note(seed, "policy " + std::string(name) + ", "));
      Outcome a, b;
      try {
        a = run_one(name, d, seed);
        b = run_one(name, d, seed);
      } catch (const std::exception& e) {
        ADD_FAILURE() << "exception: " << e.what();
        return;
      }
      EXPECT_EQ(a.trace, b.trace) << "two runs of one seed differ";
      EXPECT_TRUE(same_records(a.requests, b.requests)) << "two runs of one seed differ";
      if (::testing::Test::HasFailure()) return;  // the first failing seed is the useful one
      auto& t = totals[std::string(name)];
      t[0] += a.summary.finished;
      t[1] += a.summary.dropped;
      t[2] += a.summary.queued;
      t[3] += a.summary.evictions;
    }
  }
  for (const auto& [name, t] : totals)
    std::printf("%s: %llu finished, %llu dropped, %llu queued or running at a cut, %llu evictions\n", name.c_str(),
                static_cast<unsigned long long>(t[0]), static_cast<unsigned long long>(t[1]),
                static_cast<unsigned long long>(t[2]), static_cast<unsigned long long>(t[3]));
}

}  // namespace
}  // namespace parallax::property

// File: sim/policies/multiplex/multiplex_node_test.cpp
// Every policy on a SimPlatform: no request lost, batches never above max_batch, time slicing
// never overlaps services, elastic shares fit the device at every resize, determinism.
#include "sim/policies/multiplex/multiplex_node.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "sim/engine/engine.h"
#include "sim/engine/random_streams.h"
#include "sim/platform/sim_platform.h"
#include "sim/policies/multiplex/elastic_multiplex.h"
#include "sim/policies/multiplex/multiplex_presets.h"
#include "sim/policies/multiplex/multiplex_test_fixtures.h"
#include "sim/policies/multiplex/static_multiplex.h"
#include "sim/platform/test_machines.h"

namespace parallax {
namespace {

using namespace multiplex_test;

struct Outcome {
  MultiplexMetrics m;
  std::vector<ActivityRecord> records;
  std::vector<ShareChange> changes;
};

std::vector<std::vector<Time>> bursty_arrivals(uint64_t seed) {
  RandomStreams streams(seed);
  std::vector<std::vector<Time>> out(3);
  const double rates[] = {2000, 800, 300};
  for (size_t i = 0; i < 3; ++i) {
    RandomStream& rng = streams.stream(fmt::format("test.arrivals.{}", i));
    double t = 0;
    for (;;) {  // Gamma gaps, CV 4: shape 1/16
      t += rng.gamma(1.0 / 16, 16.0 / rates[i]);
      if (t >= 0.05) break;
      out[i].push_back(Time::seconds(t));
    }
  }
  return out;
}

Outcome run(std::string_view policy_name, uint64_t seed = 1) {
  static const GpuPartitioning parts = test_machines::h200_partitioning();
  const std::vector<ServiceModel> svcs{service("a", 2000, 16, 5), service("b", 800, 8, 10, 2.0),
                                       service("c", 300, 4, 20, 4.0)};
  Engine engine;
  ActivityLog log;
  SimPlatform platform(engine, test_machines::one_h200(), &log);
  auto policy = make_multiplex_policy(policy_name);
  MultiplexNode node(platform, *policy, gpu_of(parts), svcs, Time::ms(50));
  node.start(bursty_arrivals(seed));
  engine.run();
  Outcome o{node.metrics(), log.records, {}};
  if (auto* e = dynamic_cast<ElasticMultiplex*>(policy.get())) o.changes = e->changes();
  return o;
}

TEST(MultiplexNode, NoRequestLostUnderAnyPolicy) {
  for (std::string_view p : multiplex_policy_names()) {
    const Outcome o = run(p);
    ASSERT_EQ(o.m.services.size(), 3u) << p;
    for (const ServiceMetrics& s : o.m.services) {
      EXPECT_GT(s.arrived, 0) << p;
      EXPECT_EQ(s.finished, s.arrived) << p;
      EXPECT_LE(s.mean_batch_fill, 1.0) << p;
      EXPECT_GT(s.mean_batch_fill, 0.0) << p;
    }
    EXPECT_LE(o.m.sm_utilisation, 1.0 + 1e-9) << p;
  }
}

TEST(MultiplexNode, TimesliceRunsOneServiceAtATime) {
  const Outcome o = run("timeslice");
  std::vector<const ActivityRecord*> kernels;
  for (const ActivityRecord& r : o.records)
    if (r.kind == ActivityKind::kernel) kernels.push_back(&r);
  std::sort(kernels.begin(), kernels.end(), [](auto* a, auto* b) { return a->start < b->start; });
  for (size_t i = 1; i < kernels.size(); ++i) EXPECT_LE(kernels[i - 1]->end, kernels[i]->start);
}

TEST(MultiplexNode, ElasticSharesFitTheDeviceAtEveryResize) {
  const Outcome o = run("elastic");
  ASSERT_FALSE(o.changes.empty());
  std::map<int, ShareChange> now;
  for (size_t i = 0; i < o.changes.size(); ++i) {
    now[o.changes[i].service] = o.changes[i];
    const bool last_at_time = i + 1 == o.changes.size() || o.changes[i + 1].at != o.changes[i].at;
    if (!last_at_time) continue;
    int sms = 0;
    double bw = 0;
    for (const auto& [svc, c] : now) {
      sms += c.sms;
      bw += c.bandwidth_share;
    }
    EXPECT_LE(sms, 132);
    EXPECT_LE(bw, 1.0 + 1e-9);
  }
}

// One service alone, one request every 10 ms: each batch is one request, two kernels (10 and 4
// blocks); shares change per kernel, so its partition grows to 10 SMs at the first launch and
// shrinks to 4 at the second, each holding that launch: every latency grows by exactly twice the
// resize cost, and the launches waited two costs per batch (the shrink at batch end holds none).
MultiplexMetrics lone_elastic(Time resize_cost) {
  static const GpuPartitioning parts = test_machines::h200_partitioning();
  const std::vector<ServiceModel> svcs{service("a", 100, 8, 5)};
  Engine engine;
  SimPlatform platform(engine, test_machines::one_h200());
  ElasticMultiplex policy(resize_cost);
  MultiplexNode node(platform, policy, gpu_of(parts), svcs, Time::ms(50));
  node.start({{Time::ms(1), Time::ms(11), Time::ms(21), Time::ms(31)}});
  engine.run();
  return node.metrics();
}

TEST(MultiplexNode, ElasticResizeCostsExactlyTheConfiguredTime) {
  const MultiplexMetrics free = lone_elastic(Time::zero());
  const MultiplexMetrics costly = lone_elastic(Time::us(37));
  ASSERT_EQ(free.services[0].batches, 4);
  ASSERT_EQ(costly.services[0].batches, 4);
  EXPECT_NEAR(costly.services[0].mean_latency_s - free.services[0].mean_latency_s, 2 * 37e-6, 1e-12);
  EXPECT_NEAR(costly.services[0].p99_latency_s - free.services[0].p99_latency_s, 2 * 37e-6, 1e-12);
  EXPECT_EQ(free.services[0].resize_wait_s, 0.0);
  EXPECT_NEAR(costly.services[0].resize_wait_s, 8 * 37e-6, 1e-12);
}

// Two services alternating, one request each every 10 ms (a at 1, 11, ...; b at 6, 16, ...), far
// apart: every batch after the first is another service's, so time slicing switches context
// before each of them (7 switches for 8 batches) and each of those requests waits exactly the
// switch cost; one service alone never switches.
MultiplexMetrics alternating_timeslice(Time switch_cost, bool second_service, int64_t* switches) {
  static const GpuPartitioning parts = test_machines::h200_partitioning();
  std::vector<ServiceModel> svcs{service("a", 100, 8, 5)};
  std::vector<std::vector<Time>> arrivals{{Time::ms(1), Time::ms(11), Time::ms(21), Time::ms(31)}};
  if (second_service) {
    svcs.push_back(service("b", 100, 8, 5));
    arrivals.push_back({Time::ms(6), Time::ms(16), Time::ms(26), Time::ms(36)});
  }
  Engine engine;
  SimPlatform platform(engine, test_machines::one_h200());
  TimesliceMultiplex policy(switch_cost);
  MultiplexNode node(platform, policy, gpu_of(parts), svcs, Time::ms(50));
  node.start(arrivals);
  engine.run();
  *switches = policy.switches();
  return node.metrics();
}

TEST(MultiplexNode, TimesliceSwitchCostsOnlyWhenTheServiceChanges) {
  int64_t n_free = 0, n_costly = 0, n_alone = 0;
  const MultiplexMetrics free = alternating_timeslice(Time::zero(), true, &n_free);
  const MultiplexMetrics costly = alternating_timeslice(Time::us(50), true, &n_costly);
  const MultiplexMetrics alone = alternating_timeslice(Time::us(50), false, &n_alone);
  EXPECT_EQ(n_costly, 7);
  EXPECT_EQ(n_alone, 0);
  const auto latency_sum = [](const MultiplexMetrics& m) {
    double t = 0;
    for (const ServiceMetrics& s : m.services) t += s.mean_latency_s * static_cast<double>(s.finished);
    return t;
  };
  EXPECT_NEAR(latency_sum(costly) - latency_sum(free), 7 * 50e-6, 1e-12);
  const MultiplexMetrics alone_free = alternating_timeslice(Time::zero(), false, &n_alone);
  EXPECT_NEAR(alone.services[0].mean_latency_s, alone_free.services[0].mean_latency_s, 1e-15);
}

TEST(MultiplexNode, ZeroResizeCostIsTheFreeElasticPolicy) {
  const Outcome preset = run("elastic");
  static const GpuPartitioning parts = test_machines::h200_partitioning();
  const std::vector<ServiceModel> svcs{service("a", 2000, 16, 5), service("b", 800, 8, 10, 2.0),
                                       service("c", 300, 4, 20, 4.0)};
  Engine engine;
  ActivityLog log;
  SimPlatform platform(engine, test_machines::one_h200(), &log);
  auto zero = make_multiplex_policy("elastic", Time::zero());
  MultiplexNode node(platform, *zero, gpu_of(parts), svcs, Time::ms(50));
  node.start(bursty_arrivals(1));
  engine.run();
  ASSERT_EQ(log.records.size(), preset.records.size());
  for (size_t i = 0; i < log.records.size(); ++i) EXPECT_EQ(log.records[i].end, preset.records[i].end);
  // and a cost makes the same run slower
  Engine engine2;
  SimPlatform platform2(engine2, test_machines::one_h200());
  auto costly = make_multiplex_policy("elastic", Time::us(20));
  MultiplexNode node2(platform2, *costly, gpu_of(parts), svcs, Time::ms(50));
  node2.start(bursty_arrivals(1));
  engine2.run();
  EXPECT_GT(node2.metrics().mean_latency_s, node.metrics().mean_latency_s);
}

// A whole GPU is the largest partition: a small batch's kernels fill less of it than of a MIG
// instance or of an elastic partition sized to the batch.
TEST(MultiplexNode, InstanceSaturationIsAFractionAndLowestOnTheWholeGpu) {
  const Outcome ts = run("timeslice"), el = run("elastic"), mig = run("mig");
  for (const Outcome* o : {&ts, &el, &mig})
    for (const ServiceMetrics& s : o->m.services) {
      EXPECT_GT(s.instance_saturation, 0.0);
      EXPECT_LE(s.instance_saturation, 1.0 + 1e-12);
      EXPECT_GE(s.instance_saturation, std::max(s.sm_saturation, s.hbm_saturation) - 1e-12);
    }
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_LT(ts.m.services[i].sm_saturation, el.m.services[i].sm_saturation) << i;
    EXPECT_LT(ts.m.services[i].sm_saturation, mig.m.services[i].sm_saturation) << i;
  }
}

TEST(MultiplexNode, SameSeedSameRunOtherSeedOtherRun) {
  const Outcome a = run("elastic", 3), b = run("elastic", 3), c = run("elastic", 4);
  ASSERT_EQ(a.records.size(), b.records.size());
  for (size_t i = 0; i < a.records.size(); ++i) {
    EXPECT_EQ(a.records[i].start, b.records[i].start);
    EXPECT_EQ(a.records[i].end, b.records[i].end);
  }
  EXPECT_NE(a.m.services[0].arrived + a.m.services[1].arrived * 7,
            c.m.services[0].arrived + c.m.services[1].arrived * 7);
}

}  // namespace
}  // namespace parallax

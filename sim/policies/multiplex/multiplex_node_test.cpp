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
  static const GpuPartitioning parts = h200_parts();
  const std::vector<ServiceModel> svcs{service("a", 2000, 16, 5), service("b", 800, 8, 10, 2.0),
                                       service("c", 300, 4, 20, 4.0)};
  Engine engine;
  ActivityLog log;
  SimPlatform platform(engine, one_gpu(), &log);
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

// File: sim/policies/multiplex/dynamic_mig_multiplex_test.cpp
// Dynamic MIG on a SimPlatform: the layout follows a load that moves from one service to the
// other, every layout is legal, and a re-cut instance launches nothing for the reconfiguration cost.
#include "sim/policies/multiplex/dynamic_mig_multiplex.h"

#include <gtest/gtest.h>

#include "sim/engine/engine.h"
#include "sim/platform/sim_platform.h"
#include "sim/platform/test_machines.h"
#include "sim/policies/multiplex/multiplex_node.h"
#include "sim/policies/multiplex/multiplex_presets.h"
#include "sim/policies/multiplex/multiplex_test_fixtures.h"

namespace parallax {
namespace {

using namespace multiplex_test;

struct MovingLoad {
  MultiplexMetrics m;
  MigSearchResult initial, last;
  int reconfigurations = 0;
};

// Mean rates say c is the heavy one (a, b get small instances), but a sends one request every
// 0.25 ms on [0, 30 ms), b the same on [30, 60 ms) and c nothing. Cost 1 ms: the policy decides
// every 10 ms on the rates of the 10 ms before.
MovingLoad moving_load(Time cost) {
  static const GpuPartitioning parts = test_machines::h200_partitioning();
  const std::vector<ServiceModel> svcs{service("a", 100, 8, 5), service("b", 100, 8, 5), service("c", 4000, 8, 5)};
  std::vector<std::vector<Time>> arrivals(3);
  for (int k = 0; k < 120; ++k) arrivals[0].push_back(Time::us(250 * k));
  for (int k = 0; k < 120; ++k) arrivals[1].push_back(Time::ms(30) + Time::us(250 * k));
  Engine engine;
  SimPlatform platform(engine, test_machines::one_h200());
  DynamicMigMultiplex policy(cost);
  MultiplexNode node(platform, policy, gpu_of(parts), svcs, Time::ms(60));
  node.start(arrivals);
  engine.run();
  return {node.metrics(), policy.initial_layout(), policy.layout(), policy.reconfigurations()};
}

TEST(DynamicMig, TheLayoutFollowsTheLoad) {
  const MovingLoad r = moving_load(Time::ms(1));
  EXPECT_LT(r.initial.instances[0].sms, r.initial.instances[2].sms);
  EXPECT_LT(r.initial.instances[1].sms, r.initial.instances[2].sms);
  ASSERT_GE(r.reconfigurations, 2);  // towards a, then towards b
  EXPECT_GT(r.last.instances[1].sms, r.last.instances[0].sms);
  EXPECT_GT(r.last.instances[1].sms, r.last.instances[2].sms);
  for (const ServiceMetrics& s : r.m.services) EXPECT_EQ(s.finished, s.arrived);
  EXPECT_NO_THROW(check_mig_layout(test_machines::h200_partitioning(), r.last.placements));
}

// Launch holds come only from re-cuts, each at most the cost per re-cut instance.
TEST(DynamicMig, AReCutInstanceServesNothingForTheCost) {
  const MovingLoad r = moving_load(Time::ms(1));
  double waited = 0;
  for (const ServiceMetrics& s : r.m.services) {
    EXPECT_LE(s.resize_wait_s, r.reconfigurations * 1e-3 + 1e-12);
    waited += s.resize_wait_s;
  }
  EXPECT_GT(waited, 0.0);
  // A cost ten times larger: decisions every 100 ms, none in a 60 ms run, so rigid MIG's layout.
  const MovingLoad slow = moving_load(Time::ms(10));
  EXPECT_EQ(slow.reconfigurations, 0);
  for (const ServiceMetrics& s : slow.m.services) EXPECT_EQ(s.resize_wait_s, 0.0);
}

TEST(DynamicMig, RefusesAFreeReconfiguration) {
  EXPECT_THROW(make_multiplex_policy("dynamic_mig", Time::zero(), Time::zero(), Time::zero()), std::invalid_argument);
  EXPECT_EQ(make_multiplex_policy("dynamic_mig", Time::zero(), Time::zero(), Time::ms(3))->name(), "dynamic_mig");
}

}  // namespace
}  // namespace parallax

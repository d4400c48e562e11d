// File: sim/policies/multiplex/elastic_multiplex_test.cpp
// The elastic policy's per-kernel rule on hand cases (elastic_multiplex.h): slack sets the weights,
// a kernel's unused SMs go to the others, and the batch a service plans grows with its share.
#include "sim/policies/multiplex/elastic_multiplex.h"

#include <gtest/gtest.h>

#include "sim/engine/engine.h"
#include "sim/platform/sim_platform.h"
#include "sim/platform/test_machines.h"
#include "sim/policies/multiplex/batch_latency.h"
#include "sim/policies/multiplex/multiplex_test_fixtures.h"

namespace parallax {
namespace {

using namespace multiplex_test;

// A batch of n: one compute-bound kernel of 132 blocks (every SM), n · 2 GFLOP.
ServiceModel wide_service(const std::string& name, int max_batch, double slo_ms) {
  ServiceModel s;
  s.name = name;
  s.rate_per_s = 1000;
  s.batcher = {max_batch, Time::us(500), Time::seconds(slo_ms * 1e-3)};
  s.kernels_by_batch.resize(static_cast<size_t>(max_batch) + 1);
  for (int n = 1; n <= max_batch; ++n)
    s.kernels_by_batch[static_cast<size_t>(n)] = {{"gemm", OpKind::gemm, {n * 2e9, 1e6, 132, 1}, {}}};
  return s;
}

struct Fixture {
  GpuPartitioning parts = test_machines::h200_partitioning();
  Engine engine;
  SimPlatform platform{engine, test_machines::one_h200()};
  ElasticMultiplex policy;
};

// Same quota, same kernel; a's oldest request is due in 10 ms, b's in 1 ms: b needs ten times the
// GPU fraction a needs (R/L), so b gets ten times a's SMs: 132 SMs by 1:10 = 12/120.
TEST(ElasticMultiplex, TheServiceWithMoreSlackYieldsSms) {
  Fixture f;
  const std::vector<ServiceModel> svcs{wide_service("a", 4, 20), wide_service("b", 4, 20)};
  f.policy.setup(f.platform, gpu_of(f.parts), svcs);
  f.policy.on_batch_start(f.platform, 0, 4);
  f.policy.on_kernel(f.platform, 0, 0, Time::ms(10));
  EXPECT_EQ(f.policy.share(0).sms, 132 - 2);  // alone: its whole demand, b idle keeps one TPC
  f.policy.on_batch_start(f.platform, 1, 4);
  f.policy.on_kernel(f.platform, 1, 0, Time::ms(1));
  const int a = f.policy.share(0).sms, b = f.policy.share(1).sms;
  EXPECT_EQ(a + b, 132);
  EXPECT_LT(a, b);
  EXPECT_EQ(a, 12);
  EXPECT_GT(f.policy.share(1).bandwidth_share, f.policy.share(0).bandwidth_share);
  // swap the deadlines: the shares swap
  f.policy.on_kernel(f.platform, 0, 0, Time::us(100));
  EXPECT_GT(f.policy.share(0).sms, f.policy.share(1).sms);
}

// b's current kernel is the 4-block norm of a batch of 1 (fixture service), due in 0.1 ms while a
// has 10 s: b holds its 4 SMs, and a, whose kernel needs every SM, gets the other 128 (bubble
// filling at kernel granularity); at b's next kernel (a 10-block gemm of its next batch) b takes 10.
TEST(ElasticMultiplex, AKernelsUnusedSmsGoToTheOthers) {
  Fixture f;
  const std::vector<ServiceModel> svcs{wide_service("a", 4, 20), service("b", 1000, 4, 20)};
  f.policy.setup(f.platform, gpu_of(f.parts), svcs);
  f.policy.on_batch_start(f.platform, 0, 4);
  f.policy.on_kernel(f.platform, 0, 0, Time::seconds(10));
  f.policy.on_batch_start(f.platform, 1, 1);
  f.policy.on_kernel(f.platform, 1, 1, Time::us(100));  // kernel 1: norm, 4 blocks
  EXPECT_EQ(f.policy.share(1).sms, 4);
  EXPECT_EQ(f.policy.share(0).sms, 128);
  f.policy.on_batch_end(f.platform, 1);
  EXPECT_EQ(f.policy.share(1).sms, 2);
  EXPECT_EQ(f.policy.share(0).sms, 130);
  f.policy.on_batch_start(f.platform, 1, 1);
  f.policy.on_kernel(f.platform, 1, 0, Time::us(100));  // kernel 0: gemm, 10 blocks
  EXPECT_EQ(f.policy.share(1).sms, 10);
  EXPECT_EQ(f.policy.share(0).sms, 122);
}

// The batch a service plans is the largest its planning share finishes within the SLO: alone it
// plans on (nearly) the whole GPU, beside an urgent batch of another service on a fraction, and
// the cap falls with the share.
TEST(ElasticMultiplex, BatchGrowsWithTheShare) {
  Fixture f;
  const std::vector<ServiceModel> svcs{wide_service("a", 8, 20), wide_service("b", 64, 0.12)};
  f.policy.setup(f.platform, gpu_of(f.parts), svcs);
  const DeviceRates rates = gpu_of(f.parts).rates;
  const auto cap_on = [&](const ServiceShare& s) {
    ServiceBatcher batcher(svcs[1].batcher);
    return batcher.cap([&](int n) {
      return batch_latency_s(svcs[1].kernels_by_batch[static_cast<size_t>(n)], rates, s.sms, s.bandwidth_share);
    });
  };
  const ServiceShare alone = f.policy.planning_share(1);
  EXPECT_EQ(alone.sms, 130);  // a idle keeps one TPC
  f.policy.on_batch_start(f.platform, 0, 8);
  f.policy.on_kernel(f.platform, 0, 0, Time::us(50));  // a's batch is nearly late: it weighs a lot
  const ServiceShare beside = f.policy.planning_share(1);
  EXPECT_LT(beside.sms, alone.sms);
  EXPECT_GT(cap_on(alone), cap_on(beside));
  EXPECT_GT(cap_on(beside), 0);
  EXPECT_LE(cap_on(alone), 64);
}

}  // namespace
}  // namespace parallax

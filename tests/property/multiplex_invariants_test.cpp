// File: tests/property/multiplex_invariants_test.cpp
// Every multiplexing policy (timeslice, mps, mig, dynamic_mig, elastic) as a Platform client under random
// setups: an H200 (132 SMs, its MIG profiles) shared by 1-4 services, each a random model of the
// catalog (scenarios/models/catalog.yaml, tile-level kernels by
// sim/policies/multiplex/service_kernels.h, the H200's per-SM bandwidth cap on) or a synthetic
// two-kernel one, with a random max batch (1-16), batching timeout, SLO and offered load (10-150%
// of what the GPU serves at full batches, split among the services), arrivals Poisson or bursty
// (Gamma gaps, CV 4) over 5-40 ms, and for elastic and timeslice a random resize / context-switch
// cost (0 or 1-100 us), for dynamic_mig a random reconfiguration cost (0.1-4 ms, so it decides
// every 1-40 ms and re-cuts within the run).
//
// Checked for each seed and policy, on a CheckedPlatform (checked_platform.h: partitions within
// the device, kernels not faster than their roofline bound, solver capacities, time monotone,
// every kernel finishing once) and through a policy wrapper that watches what the node is told:
//  * every request accounted for: per service arrived = its arrivals and finished = arrived (the
//    run drains; metrics() does not throw);
//  * a service with a batch in flight gets a share: at each of its kernel launches its share has
//    SMs (or the whole GPU) and a bandwidth share in (0, 1];
//  * elastic, mig and dynamic_mig: the services' shares together fit the device (SMs <= 132,
//    bandwidth shares sum <= 1) after every batch start, kernel announcement and batch end;
//  * the same seed gives the same callback trace twice.
// A failure names the policy and the seed; rerun one with PARALLAX_PROPERTY_SEED=N, or more with
// PARALLAX_PROPERTY_RUNS=N (default 200 seeds, each under every policy).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/engine/engine.h"
#include "sim/engine/random_streams.h"
#include "sim/platform/sim_platform.h"
#include "sim/policies/multiplex/batch_latency.h"
#include "sim/policies/multiplex/multiplex_node.h"
#include "sim/policies/multiplex/multiplex_presets.h"
#include "sim/policies/multiplex/multiplex_test_fixtures.h"
#include "sim/policies/multiplex/service_kernels.h"
#include "sim/scenario/model_catalog_reader.h"
#include "sim/platform/test_machines.h"
#include "tests/property/checked_platform.h"
#include "tests/property/property_seeds.h"

namespace parallax::property {
namespace {

int uniform_count(RandomStream& rng, int lo, int hi) {  // [lo, hi]
  return lo + static_cast<int>(rng.uniform_int(static_cast<uint64_t>(hi - lo + 1)));
}
double log_uniform(RandomStream& rng, double lo, double hi) { return std::exp(rng.uniform(std::log(lo), std::log(hi))); }

// Forwards to the policy under test and checks the shares the node is given.
class WatchedPolicy final : public MultiplexPolicy {
 public:
  WatchedPolicy(MultiplexPolicy& inner, int gpu_sms, bool partitions_add_up)
      : inner_(inner), gpu_sms_(gpu_sms), partitions_add_up_(partitions_add_up) {}
  std::string name() const override { return inner_.name(); }
  void setup(Platform& platform, const MultiplexGpu& gpu, std::span<const ServiceModel> services) override {
    inner_.setup(platform, gpu, services);
    running_.assign(services.size(), false);
  }
  ServiceShare nominal_share(int service) const override { return inner_.nominal_share(service); }
  ServiceShare share(int service) const override {
    const ServiceShare s = inner_.share(service);
    if (running_.at(static_cast<size_t>(service))) {
      ++checked_launches_;
      if (s.sms < 0 || s.sms > gpu_sms_ || !(s.bandwidth_share > 0) || s.bandwidth_share > 1)
        ADD_FAILURE() << "service " << service << " has a batch in flight but its share is " << s.sms << " SMs, bandwidth "
                      << s.bandwidth_share;
    }
    return s;
  }
  ServiceShare planning_share(int service) const override { return inner_.planning_share(service); }
  Time launch_ready_at(int service) const override { return inner_.launch_ready_at(service); }
  void on_arrival(Platform& platform, int service) override { inner_.on_arrival(platform, service); }
  void on_kernel(Platform& platform, int service, size_t kernel, Time deadline) override {
    if (!running_.at(static_cast<size_t>(service))) ADD_FAILURE() << "service " << service << " launched outside a batch";
    inner_.on_kernel(platform, service, kernel, deadline);
    check_sum();
  }
  bool may_start(int service, const std::vector<bool>& running) const override { return inner_.may_start(service, running); }
  void on_batch_start(Platform& platform, int service, int batch) override {
    if (running_.at(static_cast<size_t>(service))) ADD_FAILURE() << "service " << service << " started a second batch";
    running_[static_cast<size_t>(service)] = true;
    inner_.on_batch_start(platform, service, batch);
    check_sum();
  }
  void on_batch_end(Platform& platform, int service) override {
    if (!running_.at(static_cast<size_t>(service))) ADD_FAILURE() << "service " << service << " ended a batch it had not started";
    running_[static_cast<size_t>(service)] = false;
    inner_.on_batch_end(platform, service);
    check_sum();
  }
  uint64_t checked_launches() const { return checked_launches_; }

 private:
  void check_sum() const {
    if (!partitions_add_up_) return;
    int sms = 0;
    double bandwidth = 0;
    for (size_t i = 0; i < running_.size(); ++i) {
      const ServiceShare s = inner_.share(static_cast<int>(i));
      sms += s.sms;
      bandwidth += s.bandwidth_share;
    }
    if (sms > gpu_sms_ || bandwidth > 1 + 1e-9)
      ADD_FAILURE() << inner_.name() << ": the services' shares add up to " << sms << " SMs and bandwidth " << bandwidth;
  }

  MultiplexPolicy& inner_;
  int gpu_sms_;
  bool partitions_add_up_;
  std::vector<bool> running_;
  mutable uint64_t checked_launches_ = 0;
};

// A catalog model as kernels for every batch size (as sim/experiment/multiplex_experiment.cpp builds it).
ServiceModel catalog_service(const CatalogModel& m, int max_batch, const DeviceRates& rates) {
  ServiceModel s;
  s.name = m.name;
  s.memory_bytes = static_cast<double>(m.param_bytes());
  s.kernels_by_batch = service_kernels(m.name, max_batch, rates, gpu_limits_for("H200"));
  return s;
}

struct Draw {
  std::vector<ServiceModel> services;
  std::vector<std::vector<Time>> arrivals;
  Time duration;
  Time resize_cost;
  Time reconfig_cost;
};

Draw draw(uint64_t seed, const MultiplexGpu& gpu) {
  RandomStreams streams(seed);
  RandomStream& rng = streams.stream("multiplex");
  const ModelCatalog& catalog = embedded_model_catalog();
  Draw d;
  d.duration = Time::seconds(rng.uniform(0.005, 0.04));
  d.resize_cost = rng.uniform01() < 0.5 ? Time::zero() : Time::seconds(log_uniform(rng, 1e-6, 1e-4));
  const int n = uniform_count(rng, 1, 4);
  const double load = rng.uniform(0.1, 1.5);
  double weights = 0;  // models' memory together stays within the GPU (the loader refuses more)
  for (int i = 0; i < n; ++i) {
    const int max_batch = uniform_count(rng, 1, 16);
    ServiceModel s;
    const CatalogModel& m = catalog.models[rng.uniform_int(catalog.models.size())];
    if (rng.uniform01() < 0.6 && weights + static_cast<double>(m.param_bytes()) <= 100e9) {
      s = catalog_service(m, max_batch, gpu.rates);
      weights += s.memory_bytes;
    } else {
      s = multiplex_test::service("synthetic", 1, max_batch, 1, log_uniform(rng, 0.1, 4));
    }
    s.name += "#" + std::to_string(i);
    const double full_batch_s = batch_latency_s(s.kernels_by_batch.back(), gpu.rates, 0, 1.0);
    s.rate_per_s = load / n * max_batch / full_batch_s;
    s.batcher = {max_batch, Time::seconds(log_uniform(rng, 1e-5, 5e-3)),
                 Time::seconds(full_batch_s * log_uniform(rng, 1.0, 20.0))};
    std::vector<Time> times;
    const bool bursty = rng.uniform01() < 0.5;
    for (double t = 0;;) {
      t += bursty ? rng.gamma(1.0 / 16, 16.0 / s.rate_per_s) : rng.exponential(1.0 / s.rate_per_s);
      if (t >= d.duration.to_seconds()) break;
      times.push_back(Time::seconds(t));
    }
    d.services.push_back(std::move(s));
    d.arrivals.push_back(std::move(times));
  }
  d.reconfig_cost = Time::seconds(log_uniform(rng, 1e-4, 4e-3));  // drawn last: earlier draws as before
  return d;
}

struct Outcome {
  std::vector<std::pair<uint64_t, int64_t>> trace;
  int64_t requests = 0;
  uint64_t share_checks = 0;
  bool ran = false;
};

Outcome run_one(std::string_view policy_name, const Draw& d, const MultiplexGpu& gpu) {
  Engine engine;
  SimPlatform sim(engine, test_machines::one_h200(0, gpu.rates.bw_per_sm_Bps));
  CheckedPlatform platform(engine, sim);
  // One random cost serves both: elastic's resize hold and time slicing's context switch.
  auto policy = make_multiplex_policy(policy_name, d.resize_cost, d.resize_cost, d.reconfig_cost);
  WatchedPolicy watched(*policy, 132, policy_name == "elastic" || policy_name == "mig" || policy_name == "dynamic_mig");
  MultiplexNode node(platform, watched, gpu, d.services, d.duration);
  try {
    node.start(d.arrivals);
  } catch (const std::exception& e) {
    // mig and dynamic_mig only: no layout gives every service an instance its weights fit in
    // (the scenario loader refuses such a workload with exit 2).
    EXPECT_TRUE(policy_name == "mig" || policy_name == "dynamic_mig") << "setup failed: " << e.what();
    return {};
  }
  engine.run();
  platform.check_drained();
  MultiplexMetrics m;
  EXPECT_NO_THROW(m = node.metrics());
  Outcome o{platform.trace(), 0, watched.checked_launches(), true};
  EXPECT_EQ(m.services.size(), d.services.size());
  for (size_t i = 0; i < m.services.size() && i < d.arrivals.size(); ++i) {
    const ServiceMetrics& s = m.services[i];
    EXPECT_EQ(s.arrived, static_cast<int64_t>(d.arrivals[i].size())) << "service " << i;
    EXPECT_EQ(s.finished, s.arrived) << "service " << i;
    EXPECT_LE(s.within_slo, s.finished) << "service " << i;
    o.requests += s.finished;
  }
  return o;
}

TEST(MultiplexInvariants, EveryPolicyUnderRandomSetups) {
  static const GpuPartitioning parts = test_machines::h200_partitioning();
  MultiplexGpu gpu = multiplex_test::gpu_of(parts);
  gpu.rates.bw_per_sm_Bps = 72.7e9;  // the h200x1 preset's cap (2·HBM/SMs)
  const SeedRange seeds = property_seeds(200);
  std::map<std::string, std::pair<int64_t, int>> totals;  // policy -> (requests, setups without a layout)
  uint64_t share_checks = 0;
  for (uint64_t seed = seeds.first; seed <= seeds.last; ++seed) {
    const Draw d = draw(seed, gpu);
    for (std::string_view name : multiplex_policy_names()) {
      SCOPED_TRACE(seed_note(seed, "policy " + std::string(name) + ", "));
      const Outcome a = run_one(name, d, gpu);
      const Outcome b = run_one(name, d, gpu);
      EXPECT_EQ(a.trace, b.trace) << "two runs of one seed differ";
      if (::testing::Test::HasFailure()) return;  // the first failing seed is the useful one
      totals[std::string(name)].first += a.requests;
      totals[std::string(name)].second += a.ran ? 0 : 1;
      share_checks += a.share_checks;
    }
  }
  for (const auto& [name, t] : totals)
    std::printf("%s: %lld requests, %d setups refused (no MIG layout)\n", name.c_str(), static_cast<long long>(t.first),
                t.second);
  std::printf("%llu shares checked at kernel launches\n", static_cast<unsigned long long>(share_checks));
}

}  // namespace
}  // namespace parallax::property

// File: hw/realtime_trials_test.cpp
// The colocate and serverless trials on SimPlatform (what `parallax validate` predicts with; the
// same code drives CudaPlatform in `parallax hw calibrate`), their config round trip through the
// strict measurement CSV, and the predictor's use of the measured rates.
#include <gtest/gtest.h>

#include "hw/colocate_trial.h"
#include "hw/realtime_prediction.h"
#include "hw/serverless_trial.h"
#include "models/calibration_data/data_error.h"
#include "sim/engine/engine.h"
#include "sim/platform/sim_platform.h"

namespace parallax::hw {
namespace {

models::MeasurementProvenance provenance() {
  return {"NVIDIA H200", 132, "580", "13.0", std::nullopt, std::nullopt, "2026-11-30T00:00:00Z", "x"};
}

models::Measurement row(models::MeasurementFamily family, std::vector<std::pair<std::string, std::string>> config,
                        const std::string& metric, double value, const std::string& unit) {
  models::Measurement m;
  m.family = family;
  m.config = std::move(config);
  m.config.push_back({"metric", metric});
  m.case_id = std::string(models::to_string(family)) + "/" + m.config.front().second + "/" + metric;
  m.value = value;
  m.unit = unit;
  m.provenance = provenance();
  return m;
}

// Through the CSV writer and the strict reader, as validate sees a row.
models::Measurement read_back(const models::Measurement& m) {
  return models::parse_measurements_csv(models::format_measurements_csv({m}), "m.csv").at(0);
}

HardwareSpec machine(double flops_per_s) {
  HardwareSpec h;
  GpuSpec g;
  g.model = "trial";
  g.sms = 132;
  g.peak_flops = flops_per_s;
  g.hbm_Bps = 4.8e12;
  g.memory_bytes = int64_t{64} << 30;
  g.kernel_launch_s = 5e-6;
  h.gpus.push_back(g);
  h.hosts.push_back({int64_t{64} << 30});
  h.links.push_back({gpu_node_name(0), host_node_name(0), LinkKind::pcie, 50e9, 0, true});
  return h;
}

ColocateOutcome colocate_on_sim(const ColocateTrial& t) {
  Engine engine;
  SimPlatform platform(engine, machine(t.flops_per_s), nullptr, {colocate_trial_rules(t)});
  return run_colocate_trial(platform, t, true, {}, [&] { engine.run(); });
}

TEST(ColocateTrial, ConfigRoundTripsThroughTheStrictCsv) {
  ColocateTrial t;
  t.policy = "static_split";
  t.ls_load = 0.45;
  t.seed = 7;
  const models::Measurement m = read_back(row(models::MeasurementFamily::colocate, colocate_trial_config(t),
                                              "ls_p99_latency_s", 0.01, "s"));
  EXPECT_EQ(colocate_trial_config(colocate_trial_from(m)), colocate_trial_config(t));
}

TEST(ColocateTrial, BadConfigNamesTheRow) {
  ColocateTrial t;
  t.policy = "mps";
  auto config = colocate_trial_config(t);
  for (auto& [k, v] : config)
    if (k == "ls_load") v = "0";
  models::Measurement m = read_back(row(models::MeasurementFamily::colocate, config, "ls_p50_latency_s", 0.01, "s"));
  EXPECT_THROW(colocate_trial_from(m), models::DataError);
}

TEST(ColocateTrial, PoliciesOnSimPlatformBehaveAsTheirDesignSays) {
  ColocateTrial t;
  t.ls_load = 0.3;
  t.duration_s = 0.5;
  t.policy = "ls_alone";
  const ColocateOutcome alone = colocate_on_sim(t);
  ASSERT_GT(alone.ls_requests, 20);
  // Alone, a request waits only for the ones before it: at 30 % load most meet 5x solo.
  EXPECT_GE(alone.ls_p50_latency_s, alone.ls_solo_s * 0.99);
  EXPECT_GE(alone.ls_p99_latency_s, alone.ls_p50_latency_s);
  EXPECT_GT(alone.ls_slo_attainment, 0.9);
  EXPECT_EQ(alone.be_throughput, 0);
  for (const char* p : {"mps", "static_split", "orion", "temporal"}) {
    t.policy = p;
    const ColocateOutcome o = colocate_on_sim(t);
    EXPECT_EQ(o.ls_requests, alone.ls_requests) << p;  // same seed, same arrivals
    EXPECT_GT(o.be_throughput, 0) << p;
    // Sharing the GPU never makes LS faster than having it alone.
    EXPECT_GE(o.ls_p50_latency_s, alone.ls_p50_latency_s * 0.999) << p;
  }
}

TEST(ColocateTrial, SameTrialSameNumbers) {
  ColocateTrial t;
  t.policy = "orion";
  t.duration_s = 0.3;
  const ColocateOutcome a = colocate_on_sim(t), b = colocate_on_sim(t);
  EXPECT_EQ(a.ls_p99_latency_s, b.ls_p99_latency_s);
  EXPECT_EQ(a.be_throughput, b.be_throughput);
}

TEST(ServerlessTrial, SwapsThroughThePlatformWhenThePoolIsSmall) {
  ServerlessTrial t;
  t.duration_s = 3;
  Engine engine;
  SimPlatform platform(engine, machine(t.flops_per_s));
  const ServerlessOutcome o = run_serverless_trial(platform, t, [&] { engine.run(); });
  EXPECT_GT(o.requests, 30);
  // The three models (1.68 GB) do not fit the 1.5 GiB pool together: some are loaded again.
  EXPECT_GT(o.swaps, 3);
  EXPECT_GE(o.p99_latency_s, o.p50_latency_s);
  EXPECT_GT(o.p50_latency_s, 0);
  EXPECT_GT(o.slo_attainment, 0);
  EXPECT_LE(o.slo_attainment, 1);
  // A pool holding every model swaps each in once.
  t.pool_bytes = int64_t{4} << 30;
  Engine engine2;
  SimPlatform platform2(engine2, machine(t.flops_per_s));
  EXPECT_EQ(run_serverless_trial(platform2, t, [&] { engine2.run(); }).swaps, 3);
}

TEST(ServerlessTrial, ConfigRoundTripsThroughTheStrictCsv) {
  ServerlessTrial t;
  t.rate_per_s = 12.5;
  const models::Measurement m =
      read_back(row(models::MeasurementFamily::serverless, serverless_trial_config(t), "swaps", 10, "count"));
  EXPECT_EQ(serverless_trial_config(serverless_trial_from(m)), serverless_trial_config(t));
  auto config = serverless_trial_config(t);
  for (auto& [k, v] : config)
    if (k == "models") v = "resnet50+nonesuch";
  RealtimePredictor predictor(simulated_gpu({}, {}));
  EXPECT_THROW(predictor.predict(read_back(row(models::MeasurementFamily::serverless, config, "swaps", 10, "count"))),
               models::DataError);
}

// The predictor runs the row's trial on SimPlatform; a measured co-run row saying the intensity
// kernel reaches half the planned FLOP/s makes the LS requests slower.
TEST(RealtimePredictor, PredictsEveryMetricAndUsesTheMeasuredRate) {
  ColocateTrial t;
  t.policy = "static_split";
  t.duration_s = 0.4;
  std::vector<models::Measurement> rows;
  for (const TrialMetric& m : colocate_metrics(t.policy))
    rows.push_back(read_back(row(models::MeasurementFamily::colocate, colocate_trial_config(t), m.name, 1, m.unit)));
  RealtimePredictor planned(simulated_gpu({}, rows));
  const ColocateOutcome direct = colocate_on_sim(t);
  EXPECT_DOUBLE_EQ(*planned.predict(rows[0]), direct.ls_p50_latency_s);
  EXPECT_DOUBLE_EQ(*planned.predict(rows[3]), direct.be_throughput);

  models::Measurement corun;
  corun.family = models::MeasurementFamily::corun;
  corun.case_id = "corun/compute@all/none@all";
  corun.config = {{"kernel", "compute"}, {"flops", "1e12"}, {"dram_bytes", "0"}, {"blocks", "1056"}, {"with", "none"},
                  {"with_flops", "0"}, {"with_dram_bytes", "0"}, {"with_blocks", "0"}, {"sms", "all"}, {"with_sms", "all"}};
  corun.value = 1e12 / (t.flops_per_s / 2);
  corun.provenance = provenance();
  rows.push_back(corun);
  RealtimePredictor measured(simulated_gpu({}, rows));
  EXPECT_GT(*measured.predict(rows[0]), 1.5 * direct.ls_p50_latency_s);
  EXPECT_FALSE(measured.predict(corun).has_value());
}

}  // namespace
}  // namespace parallax::hw

// File: hw/realtime_trials_test.cpp
// The colocate, serverless and multiplex trials and the overlap task graphs on SimPlatform (what
// `parallax validate` predicts with; the same code drives CudaPlatform in `parallax hw
// calibrate`), their config round trip through the strict measurement CSV, and the predictor's
// use of the measured rates.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "hw/colocate_trial.h"
#include "hw/green_split.h"
#include "hw/multiplex_trial.h"
#include "hw/overlap_trial.h"
#include "hw/realtime_prediction.h"
#include "hw/serverless_trial.h"
#include "models/calibration_data/data_error.h"
#include "sim/engine/engine.h"
#include "sim/platform/sim_platform.h"
#include "sim/policies/step_graph/step_graph_run.h"

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

// --- overlap: the policy's task graphs on one GPU ---

models::Measurement overlap_row(const OverlapTrial& t, double value) {
  models::Measurement m;
  m.family = *models::parse_measurement_family(overlap_family(t));
  m.config = overlap_trial_config(t);
  m.case_id = fmt::format("{}/{}/d{}/sms{}", overlap_family(t), t.strategy, t.d, t.comm_sms);
  m.value = value;
  m.provenance = provenance();
  return read_back(m);
}

double overlap_on_sim(const OverlapTrial& t, const StepGraph* graph = nullptr) {
  Engine engine;
  SimPlatform platform(engine, machine(t.flops_per_s), nullptr, {overlap_trial_rules(t)});
  if (graph == nullptr) return run_overlap_trial(platform, t, [&] { engine.run(); });
  StepGraphRun run(platform, *graph);
  run.start();
  engine.run();
  EXPECT_TRUE(run.finished());
  return (run.finished_at() - run.started_at()).to_seconds();
}

OverlapTrial overlap_trial(const std::string& strategy, int d = 1) {
  OverlapTrial t;
  t.strategy = strategy;
  t.d = d;
  t.m = 16384;
  t.n = 8192;
  t.k = 2048;
  return t;
}

// Every hop becomes a copy kernel on the comm SMs moving what the GPU would send: no copy to
// another GPU is left, and the bytes add up to the collective's S·(tp−1)/tp, read and written.
TEST(OverlapTrial, GraphsRunOnOneGpuAndMoveTheCollectivesBytes) {
  for (const auto& [strategy, d] : std::vector<std::pair<std::string, int>>{
           {"sequential", 1}, {"intrafusion", 1}, {"interdecom", 1}, {"interdecom", 4}}) {
    const OverlapTrial t = overlap_trial(strategy, d);
    const StepGraph g = overlap_trial_graph(t);
    EXPECT_EQ(g.ranks, 1) << strategy;
    EXPECT_EQ(g.comm_sms, strategy == "sequential" ? 0 : t.comm_sms) << strategy;
    double hbm = 0;
    int gemms = 0;
    for (const StepTask& task : g.tasks) {
      EXPECT_NE(task.kind, StepTask::Kind::copies) << task.label;
      EXPECT_EQ(task.rank, 0) << task.label;
      const bool copy_kernel = task.on_comm_partition || (task.kind == StepTask::Kind::compute && task.kernel.max_sms == t.comm_sms);
      if (copy_kernel) {
        EXPECT_EQ(task.kernel.flops, 0) << task.label;  // the copies: on the comm partition, or limited to comm_sms SMs
        EXPECT_EQ(task.on_comm_partition, strategy != "sequential") << task.label;
        hbm += task.kernel.dram_bytes;
      } else if (task.kind == StepTask::Kind::compute) {
        EXPECT_GT(task.kernel.flops, 0) << task.label;
        ++gemms;
      }
      for (uint32_t dep : task.deps) EXPECT_LT(dep, static_cast<uint32_t>(&task - g.tasks.data())) << task.label;
    }
    EXPECT_NEAR(hbm, 2.0 * static_cast<double>(overlap_copy_bytes(t)), 1.0) << strategy;
    EXPECT_EQ(overlap_copy_bytes(t), int64_t{16384} * 8192 * 2 / 8 * 7);
    // sequential: one GEMM; intrafusion: a block per ring step + 1; interdecom: one per chunk.
    EXPECT_EQ(gemms, strategy == "sequential" ? 1 : strategy == "intrafusion" ? t.tp : d) << strategy;
  }
}

// The overlap is real: the same tasks run one after another take longer than the graph.
TEST(OverlapTrial, OverlappedGraphsBeatTheirTasksInSeries) {
  for (const auto& [strategy, d] : std::vector<std::pair<std::string, int>>{{"intrafusion", 1}, {"interdecom", 4}}) {
    const OverlapTrial t = overlap_trial(strategy, d);
    StepGraph chained = overlap_trial_graph(t);
    for (size_t i = 0; i < chained.tasks.size(); ++i) chained.tasks[i].deps = i == 0 ? std::vector<uint32_t>{} : std::vector<uint32_t>{static_cast<uint32_t>(i - 1)};
    const double overlapped = overlap_on_sim(t), serial = overlap_on_sim(t, &chained);
    EXPECT_GT(overlapped, 0) << strategy;
    EXPECT_LT(overlapped, serial) << strategy;
  }
  // Sequential is its tasks in series already.
  const OverlapTrial seq = overlap_trial("sequential");
  StepGraph chained = overlap_trial_graph(seq);
  for (size_t i = 0; i < chained.tasks.size(); ++i) chained.tasks[i].deps = i == 0 ? std::vector<uint32_t>{} : std::vector<uint32_t>{static_cast<uint32_t>(i - 1)};
  EXPECT_NEAR(overlap_on_sim(seq), overlap_on_sim(seq, &chained), 1e-9);
  EXPECT_EQ(overlap_on_sim(seq), overlap_on_sim(seq));  // deterministic
}

TEST(OverlapTrial, ConfigRoundTripsAndBadRowsNameTheirLine) {
  const OverlapTrial t = overlap_trial("interdecom", 8);
  const models::Measurement m = overlap_row(t, 0.01);
  EXPECT_EQ(m.text("copy_sms"), "16");
  EXPECT_EQ(overlap_trial_config(overlap_trial_from(m)), overlap_trial_config(t));
  const models::Measurement s = overlap_row(overlap_trial("sequential"), 0.01);
  EXPECT_EQ(s.family, models::MeasurementFamily::intrafusion);
  EXPECT_EQ(s.text("stolen_sms"), "0");
  models::Measurement bad = m;
  for (auto& [k, v] : bad.config)
    if (k == "strategy") v = "intrafusion";  // an interdecom row with another family's strategy
  EXPECT_THROW(overlap_trial_from(bad), models::DataError);
}

// validate's path: the row's graph on SimPlatform; a row of the raw-CUDA sweep (no strategy)
// is left to the interdecom fit.
TEST(RealtimePredictor, PredictsOverlapRowsWithTheSameGraph) {
  const OverlapTrial t = overlap_trial("interdecom", 4);
  const models::Measurement m = overlap_row(t, 0.01);
  RealtimePredictor p(simulated_gpu({}, {m}));
  EXPECT_DOUBLE_EQ(*p.predict(m), overlap_on_sim(t));
  models::Measurement old;
  old.family = models::MeasurementFamily::interdecom;
  old.case_id = "interdecom/old";
  old.config = {{"dtype", "bf16"}, {"m", "8192"}, {"n", "8192"}, {"k", "8192"}, {"d", "4"}, {"copy_sms", "16"},
                {"copy_bytes", "134217728"}};
  old.value = 0.002;
  old.provenance = provenance();
  EXPECT_FALSE(p.predict(read_back(old)).has_value());
}

// --- multiplex ---

// SimPlatform, plus what CudaPlatform enforces on partitions: all of them together must be cut as
// green-context groups (hw/green_split.h), or the driver refuses.
class GreenCheckedPlatform final : public Platform {
 public:
  GreenCheckedPlatform(SimPlatform& inner, GpuPartitioning rules) : inner_(inner), rules_(std::move(rules)) {}
  Time now() const override { return inner_.now(); }
  void call_at(Time at, CompletionListener& l, uint64_t tag) override { inner_.call_at(at, l, tag); }
  int gpu_count() const override { return inner_.gpu_count(); }
  int host_count() const override { return inner_.host_count(); }
  const GpuSpec& gpu(GpuId id) const override { return inner_.gpu(id); }
  const GpuPartitioning& partitioning(GpuId) const override { return rules_; }
  Path path(Endpoint a, Endpoint b) override { return inner_.path(a, b); }
  ActivityId copy(Endpoint a, Endpoint b, Bytes n, CompletionListener& l, uint64_t tag, std::string_view label) override {
    return inner_.copy(a, b, n, l, tag, label);
  }
  ActivityId launch(GpuId g, PartitionId p, const KernelProfile& k, CompletionListener& l, uint64_t tag) override {
    return inner_.launch(g, p, k, l, tag);
  }
  ActivityId collective(CollectiveOp op, std::span<const GpuId> group, Bytes n, CollectiveAlgo algo, CompletionListener& l,
                        uint64_t tag, std::string_view label) override {
    return inner_.collective(op, group, n, algo, l, tag, label);
  }
  AllocationId allocate(GpuId g, Bytes n) override { return inner_.allocate(g, n); }
  void release(AllocationId a) override { inner_.release(a); }
  Bytes memory_used(GpuId g) const override { return inner_.memory_used(g); }
  PartitionId create_partition(GpuId g, const PartitionSpec& spec) override {
    sizes_.push_back(spec.sms);
    split_green_groups(rules_, sizes_);  // PartitionRuleError: the hardware would refuse
    return inner_.create_partition(g, spec);
  }
  void resize_partition(PartitionId p, const PartitionSpec& spec) override {
    sizes_.at(static_cast<size_t>(p)) = spec.sms;
    split_green_groups(rules_, sizes_);
    ++resizes_;
    inner_.resize_partition(p, spec);
  }
  int resizes() const { return resizes_; }

 private:
  SimPlatform& inner_;
  GpuPartitioning rules_;
  std::vector<int> sizes_;
  int resizes_ = 0;
};

MultiplexOutcome multiplex_on_sim(const MultiplexTrial& t) {
  Engine engine;
  SimPlatform platform(engine, machine(t.flops_per_s), nullptr, {multiplex_trial_rules(t)});
  return run_multiplex_trial(platform, t, [&] { engine.run(); });
}

MultiplexTrial multiplex_trial(const std::string& policy) {
  MultiplexTrial t;
  t.policy = policy;
  t.rates_per_s = {800, 20};
  t.duration_s = 0.5;
  return t;
}

TEST(MultiplexTrial, EveryHardwarePolicyServesTheSameArrivals) {
  int64_t requests = -1;
  for (std::string_view policy : kRealtimeMultiplexPolicies) {
    const MultiplexOutcome o = multiplex_on_sim(multiplex_trial(std::string(policy)));
    if (requests < 0) requests = o.requests;
    EXPECT_EQ(o.requests, requests) << policy;  // same seed, same arrivals
    EXPECT_GT(o.requests, 300) << policy;
    EXPECT_GT(o.slo_attainment, 0) << policy;
    EXPECT_LE(o.slo_attainment, 1) << policy;
    EXPECT_GT(o.goodput_rps, 0) << policy;
    EXPECT_LE(o.goodput_rps, static_cast<double>(o.requests) / 0.5 + 1e-9) << policy;
    EXPECT_GE(o.p99_latency_s, o.p50_latency_s) << policy;
  }
  const MultiplexTrial t = multiplex_trial("elastic");
  EXPECT_EQ(multiplex_on_sim(t).p99_latency_s, multiplex_on_sim(t).p99_latency_s);
}

// Elastic re-cuts its partitions at kernel launches and batch ends; every layout it asks for must be
// one the driver can cut (multiples of 8 SMs on an H200, all of them within 132).
TEST(MultiplexTrial, ElasticAsksOnlyForGreenContextLayouts) {
  for (double scale : {1.0, 0.25, 2.0}) {
    MultiplexTrial t = multiplex_trial("elastic");
    for (double& r : t.rates_per_s) r *= scale;
    Engine engine;
    SimPlatform sim(engine, machine(t.flops_per_s), nullptr, {multiplex_trial_rules(t)});
    GreenCheckedPlatform platform(sim, multiplex_trial_rules(t));
    const MultiplexOutcome o = run_multiplex_trial(platform, t, [&] { engine.run(); });
    EXPECT_GT(o.requests, 0);
    EXPECT_GT(platform.resizes(), 10) << scale;  // it did re-cut, many times
  }
}

TEST(MultiplexTrial, ConfigRoundTripsAndPredictorMatchesTheDirectRun) {
  const MultiplexTrial t = multiplex_trial("mps");
  std::vector<models::Measurement> rows;
  for (const TrialMetric& m : multiplex_metrics())
    rows.push_back(read_back(row(models::MeasurementFamily::multiplex, multiplex_trial_config(t), m.name, 1, m.unit)));
  EXPECT_EQ(multiplex_trial_config(multiplex_trial_from(rows[0])), multiplex_trial_config(t));
  RealtimePredictor p(simulated_gpu({}, rows));
  const MultiplexOutcome direct = multiplex_on_sim(t);
  EXPECT_DOUBLE_EQ(*p.predict(rows[0]), direct.goodput_rps);
  EXPECT_DOUBLE_EQ(*p.predict(rows[1]), direct.slo_attainment);
  auto config = multiplex_trial_config(t);
  for (auto& [k, v] : config)
    if (k == "rates_per_s") v = "800";  // two models, one rate
  EXPECT_THROW(multiplex_trial_from(read_back(row(models::MeasurementFamily::multiplex, config, "goodput_rps", 1, "1/s"))),
               models::DataError);
  config = multiplex_trial_config(t);
  for (auto& [k, v] : config)
    if (k == "models") v = "resnet50+nonesuch";
  EXPECT_THROW(p.predict(read_back(row(models::MeasurementFamily::multiplex, config, "goodput_rps", 1, "1/s"))),
               models::DataError);
}

}  // namespace
}  // namespace parallax::hw

// File: hw/sweep_plan_test.cpp
#include "hw/sweep_plan.h"

#include <gtest/gtest.h>

#include <set>

#include "models/calibration_data/measurement_csv.h"

namespace parallax::hw {
namespace {

PlanOptions with_models(bool quick) {
  PlanOptions o;
  o.quick = quick;
  // Sizes of the catalog's resnet50, resnet152, bert_qa, llama2_7b and llama2_13b (fp32/fp16
  // bytes), with FLOPs per sample for the two the multiplex family serves.
  o.models = {{"resnet50", 102228128, 16, 8.18e9}, {"resnet152", 241376928, 52, 0}, {"bert_qa", 1336377352, 26, 3.4e11},
              {"llama2_7b", 13476831232, 34, 0}, {"llama2_13b", 26031728640, 42, 0}};
  return o;
}

TEST(SweepPlan, EveryMeasuredFamilyHasCasesAndIdsAreUnique) {
  const SweepPlan plan = make_sweep_plan(with_models(false), DeviceFacts::h200());
  for (std::string_view f : kMeasuredFamilies) EXPECT_GT(plan.count(f), 0u) << f;
  std::set<std::string> ids;
  for (const PlanCase& c : plan.cases) {
    EXPECT_TRUE(ids.insert(c.id).second) << "duplicate " << c.id;
    EXPECT_GE(c.reps, c.metrics.empty() ? 5 : 1) << c.id;  // a real-time trial runs once
    EXPECT_GT(c.estimated_seconds, 0) << c.id;
    EXPECT_EQ(c.config_string().find(','), std::string::npos) << c.id;
  }
}

TEST(SweepPlan, FullSweepFitsTheDeviceScriptBudget) {
  // tools/device-check.sh has 8 minutes for the sweep, fit and validate: the sweep gets 5
  // (issue 16: the whole device sweep within 8 minutes on one H200).
  const SweepPlan full = make_sweep_plan(with_models(false), DeviceFacts::h200());
  EXPECT_LT(full.estimated_seconds(), 300.0);
  const SweepPlan quick = make_sweep_plan(with_models(true), DeviceFacts::h200());
  EXPECT_LT(quick.estimated_seconds(), 60.0);
  EXPECT_LT(quick.cases.size(), full.cases.size());
}

TEST(SweepPlan, CaseCountsPerFamily) {
  const SweepPlan full = make_sweep_plan(with_models(false), DeviceFacts::h200());
  // 7 squares + 7 token counts x 3 projections, for two dtypes; 4096^3 is both a square and a
  // token shape and is measured once.
  EXPECT_EQ(full.count("gemm"), 2u * (7 + 7 * 3 - 1));
  // h2d/d2h x pinned/pageable x 5 sizes + 4 device sizes.
  EXPECT_EQ(full.count("copy"), 4u * 5 + 4);
  // Two GEMM + reduce-scatter pairs x 3 comm-SM counts x 5 degrees.
  EXPECT_EQ(full.count("interdecom"), 2u * 3 * 5);
  // Per pair: sequential and IntraFusion at 3 comm-SM counts.
  EXPECT_EQ(full.count("intrafusion"), 2u * 4);
  // Streaming and FMA kernels on 8, 16, 32, 64 and all 132 SMs; ridge rows at 5 intensities on
  // 32 and 132 SMs.
  EXPECT_EQ(full.count("sm_scaling"), 2u * 5 + 2 * 5);
  // timeslice, mps, elastic at two loads.
  EXPECT_EQ(full.count("multiplex"), 3u * 2);
  // Models above 16 GiB (llama2_13b) are left out.
  for (const PlanCase& c : full.cases)
    if (c.family == "swap") {
      EXPECT_NE(c.get("model"), "llama2_13b");
    }
}

TEST(SweepPlan, FamiliesFilterAndRejectUnknownOrUnmeasured) {
  PlanOptions o = with_models(true);
  o.families = {"gemm", "launch"};
  const SweepPlan plan = make_sweep_plan(o, DeviceFacts::h200());
  for (const PlanCase& c : plan.cases) EXPECT_TRUE(c.family == "gemm" || c.family == "launch") << c.id;
  o.families = {"gemm", "gemmm"};
  EXPECT_THROW(make_sweep_plan(o, DeviceFacts::h200()), std::invalid_argument);
  o.families = {"serverless", "colocate"};
  const SweepPlan realtime = make_sweep_plan(o, DeviceFacts::h200());
  EXPECT_EQ(realtime.count("serverless"), 1u);
  EXPECT_EQ(realtime.count("colocate"), std::size(kRealtimeColocatePolicies));  // --quick: one load
  // "overlap" names both overlap families.
  o.families = {"overlap"};
  const SweepPlan overlap = make_sweep_plan(o, DeviceFacts::h200());
  EXPECT_GT(overlap.count("interdecom"), 0u);
  EXPECT_GT(overlap.count("intrafusion"), 0u);
  EXPECT_EQ(overlap.count("interdecom") + overlap.count("intrafusion"), overlap.cases.size());
}

// Issue 16's bar: the hardware plan runs all four systems through their policy objects (overlap's
// task graphs, serverless, colocate, multiplex), plus sm_scaling for the kernel model's figures.
TEST(SweepPlan, ThePlanListsAllFourSystems) {
  const SweepPlan plan = make_sweep_plan(with_models(false), DeviceFacts::h200());
  for (const char* f : {"interdecom", "intrafusion", "serverless", "colocate", "multiplex", "sm_scaling"})
    EXPECT_GT(plan.count(f), 0u) << f;
  std::set<std::string> strategies, multiplex;
  std::set<int64_t> sm_counts;
  for (const PlanCase& c : plan.cases) {
    if (c.family == "interdecom" || c.family == "intrafusion") {
      strategies.insert(c.get("strategy"));
      EXPECT_LE(c.reps, 5) << c.id;  // each repetition builds a CudaPlatform
      EXPECT_EQ(c.get_int("m") % (c.get_int("tp") * (c.family == "interdecom" ? c.get_int("d") : 1)), 0) << c.id;
    }
    if (c.family == "multiplex") multiplex.insert(c.get("policy"));
    if (c.family == "sm_scaling") sm_counts.insert(c.get_int("sms"));
  }
  EXPECT_EQ(strategies, (std::set<std::string>{"sequential", "intrafusion", "interdecom"}));
  EXPECT_EQ(multiplex, (std::set<std::string>{"timeslice", "mps", "elastic"}));  // no MIG layouts on hardware
  EXPECT_EQ(sm_counts, (std::set<int64_t>{8, 16, 32, 64, 132}));
}

// Colocate and serverless cases are trials that give one row per metric, with the trial's
// config; the policies that cannot run on one GPU are not planned.
TEST(SweepPlan, RealtimeFamiliesPlanTrialsWithOneRowPerMetric) {
  const SweepPlan plan = make_sweep_plan(with_models(false), DeviceFacts::h200());
  EXPECT_EQ(plan.count("colocate"), 2 * std::size(kRealtimeColocatePolicies));
  EXPECT_EQ(plan.count("serverless"), 1u);
  double realtime_s = 0;
  for (const PlanCase& c : plan.cases) {
    if (c.family != "colocate" && c.family != "serverless" && c.family != "multiplex") {
      EXPECT_TRUE(c.metrics.empty()) << c.id;
      EXPECT_EQ(plan_rows(c).size(), 1u) << c.id;
      continue;
    }
    realtime_s += c.estimated_seconds;
    EXPECT_NE(c.get("policy"), "sgdrc") << c.id;
    EXPECT_NE(c.get("policy"), "mig") << c.id;
    ASSERT_FALSE(c.metrics.empty()) << c.id;
    const std::vector<PlanRow> rows = plan_rows(c);
    ASSERT_EQ(rows.size(), c.metrics.size());
    for (size_t i = 0; i < rows.size(); ++i) {
      EXPECT_EQ(rows[i].id, c.id + "/" + c.metrics[i].name);
      EXPECT_EQ(rows[i].config.back(), std::make_pair(std::string("metric"), c.metrics[i].name));
    }
    // The node sees the GPU at the intensity kernel's FP32 rate, not the tensor peak.
    EXPECT_EQ(std::stod(c.get("flops_per_s")), DeviceFacts::h200().fp32_flops) << c.id;
    if (c.family == "colocate") {
      EXPECT_EQ(c.get_int("static_ls_sms") % 8, 0) << c.id;
      EXPECT_EQ(c.metrics.size(), c.get("policy") == "ls_alone" ? 3u : 4u) << c.id;  // no BE alone
    }
  }
  EXPECT_EQ(plan.count("multiplex"), 2 * std::size(kRealtimeMultiplexPolicies));
  // 10 colocate trials of 1.5 s, a 10 s trace and 6 multiplex trials of 1 s: a minute at most.
  EXPECT_GT(realtime_s, 20);
  EXPECT_LT(realtime_s, 60);
}

TEST(SweepPlan, CorunSplitsFollowTheGreenContextGranularity) {
  const SweepPlan plan = make_sweep_plan(with_models(false), DeviceFacts::h200());
  bool saw_split = false;
  for (const PlanCase& c : plan.cases) {
    if (c.family != "corun" || c.get("sms") == "all" || c.get("with") == "none") continue;
    const int64_t s = c.get_int("sms"), w = c.get_int("with_sms");
    EXPECT_EQ(s % 8, 0) << c.id;
    EXPECT_EQ(s + w, 132) << c.id;  // the co-runner gets the remainder
    saw_split = true;
  }
  EXPECT_TRUE(saw_split);
}

// Every case becomes a row that the fit's strict reader accepts (keys, kinds, unique ids).
TEST(SweepPlan, EveryCaseIsAValidMeasurementRow) {
  const SweepPlan plan = make_sweep_plan(with_models(false), DeviceFacts::h200());
  std::vector<models::Measurement> rows;
  for (const PlanCase& c : plan.cases)
    for (const PlanRow& r : plan_rows(c)) {
      models::Measurement m;
      m.family = *models::parse_measurement_family(c.family);
      m.case_id = r.id;
      m.config = r.config;
      m.value = c.estimated_seconds;
      m.unit = r.unit;
      m.reps = c.reps;
      m.provenance = {"NVIDIA H200", 132, "580", "13.0", std::nullopt, std::nullopt, "2026-11-30T00:00:00Z", "x"};
      rows.push_back(m);
    }
  const std::string csv = models::format_measurements_csv(rows);
  const std::vector<models::Measurement> back = models::parse_measurements_csv(csv, "plan.csv");
  EXPECT_EQ(back.size(), rows.size());
  // The trial's own reader accepts every colocate and serverless row.
  for (const models::Measurement& m : back) {
    if (m.family == models::MeasurementFamily::colocate) {
      EXPECT_EQ(colocate_trial_config(colocate_trial_from(m)).size(), 16u);
    }
    if (m.family == models::MeasurementFamily::serverless) {
      EXPECT_FALSE(serverless_trial_from(m).models.empty());
    }
    if (m.family == models::MeasurementFamily::multiplex) {
      EXPECT_EQ(multiplex_trial_from(m).rates_per_s.size(), 2u);
    }
    if (m.family == models::MeasurementFamily::interdecom || m.family == models::MeasurementFamily::intrafusion) {
      EXPECT_EQ(overlap_trial_config(overlap_trial_from(m)), m.config) << m.case_id;
    }
  }
}

TEST(SweepPlan, RepsTargetTheCaseBudget) {
  EXPECT_EQ(reps_for(1.0, 0.1), 5);      // slow case: the minimum
  EXPECT_EQ(reps_for(0.001, 0.1), 100);  // 1 ms case: 100 ms of reps
  EXPECT_EQ(reps_for(1e-7, 0.1), 200);   // capped
}

TEST(SweepPlan, ConfigAccessors) {
  const SweepPlan plan = make_sweep_plan(with_models(true), DeviceFacts::h200());
  const PlanCase& c = plan.cases.front();
  ASSERT_EQ(c.family, "gemm");
  EXPECT_EQ(c.config_string(), "dtype=bf16;m=1024;n=1024;k=1024");
  EXPECT_EQ(c.get_int("m"), 1024);
  EXPECT_THROW(c.get("nope"), std::invalid_argument);
  EXPECT_THROW(c.get_int("dtype"), std::invalid_argument);
}

}  // namespace
}  // namespace parallax::hw

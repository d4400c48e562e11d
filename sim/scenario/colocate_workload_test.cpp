// File: sim/scenario/colocate_workload_test.cpp
// The partitioning data file and the colocate workload reader: located errors name the rule.
#include <gtest/gtest.h>

#include "sim/scenario/gpu_partitioning_reader.h"
#include "sim/io/input_error.h"
#include "sim/scenario/scenario_loader.h"

namespace parallax {
namespace {

TEST(GpuPartitioningData, EveryPresetGpuHasItsProfiles) {
  const GpuPartitioning& h200 = gpu_partitioning_for("H200-SXM");
  EXPECT_EQ(h200.sms, 132);
  EXPECT_EQ(h200.green_multiple_sms, 8);
  ASSERT_NE(h200.find_profile("3g.71gb"), nullptr);
  EXPECT_EQ(h200.find_profile("3g.71gb")->sms, 60);
  EXPECT_EQ(gpu_partitioning_for("A100-SXM4-80GB").find_profile("7g.80gb")->sms, 98);
  EXPECT_EQ(gpu_partitioning_for("H100-SXM5").find_profile("4g.40gb")->sms, 64);
  EXPECT_THROW(gpu_partitioning_for("V100-SXM2-32GB"), InputError);
}

std::string scenario_with(const std::string& extra) {
  return "name: c\nhardware: h200x1\nworkload:\n  kind: colocate\n  ls: {model: resnet50, batch: 8, arrivals: {kind: poisson, rate_per_s: 100}, "
         "slo_ms: 1}\n  be: {model: resnet152, batch: 64}\n  duration_s: 0.1\n  policies: [mig, sgdrc]\n" +
         extra;
}

std::string colocate_error_of(const std::string& yaml) {
  try {
    load_scenario_text(yaml, "c.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ColocateWorkload, ReadsAndDefaults) {
  const Scenario s = load_scenario_text(scenario_with(""), "c.yaml");
  EXPECT_EQ(s.workload_kind, "colocate");
  EXPECT_EQ(s.colocate.ls_batch, 8);
  EXPECT_DOUBLE_EQ(s.colocate.ls_slo_s, 1e-3);
  EXPECT_EQ(s.colocate.static_ls_sms, 64);
  EXPECT_EQ(s.colocate.mig_ls_profile, "4g.71gb");
  EXPECT_EQ(s.colocate.mig_be_profile, "3g.71gb");
  EXPECT_EQ(s.colocate.trace_policy, "sgdrc");
}

std::string pairs_scenario(const std::string& pairs, const std::string& extra = "") {
  return "name: c\nhardware: h200x1\nworkload:\n  kind: colocate\n  pairs:\n" + pairs +
         "  duration_s: 0.1\n  policies: [mig, sgdrc]\n" + extra;
}

const std::string kTwoPairs =
    "    - {ls: {model: resnet50, batch: 8, slo_ms: 4, arrivals: {kind: poisson, rate_per_s: 100}}, be: {model: resnet152, batch: 64}}\n"
    "    - {ls: {model: bert_base, batch: 2, slo_ms: 3, arrivals: {kind: poisson, rate_per_s: 50}}, be: {model: efficientnet_b0, batch: 32}}\n";

TEST(ColocateWorkload, PairsAreReadInOrderAndTheFirstIsTheMainOne) {
  const Scenario s = load_scenario_text(pairs_scenario(kTwoPairs, "  sgdrc_eviction: block\n"), "c.yaml");
  ASSERT_EQ(s.colocate.pairs.size(), 2u);
  EXPECT_TRUE(s.colocate.pairs_listed);
  EXPECT_EQ(s.colocate.pairs[1].ls_model, "bert_base");
  EXPECT_EQ(s.colocate.pairs[1].ls_batch, 2);
  EXPECT_DOUBLE_EQ(s.colocate.pairs[1].ls_slo_s, 3e-3);
  EXPECT_EQ(s.colocate.pairs[1].be_model, "efficientnet_b0");
  EXPECT_EQ(s.colocate.ls_model, "resnet50");  // ls_* repeat pairs[0]
  EXPECT_EQ(s.colocate.be_batch, 64);
  EXPECT_EQ(s.colocate.sgdrc_eviction, "block");
  const Scenario single = load_scenario_text(scenario_with(""), "c.yaml");
  EXPECT_EQ(single.colocate.pairs.size(), 1u);
  EXPECT_FALSE(single.colocate.pairs_listed);
}

TEST(ColocateWorkload, BadPairsAreLocated) {
  const std::string both = colocate_error_of(scenario_with("  pairs:\n" + kTwoPairs));
  EXPECT_NE(both.find("not both"), std::string::npos) << both;
  const std::string empty = colocate_error_of(pairs_scenario("    []\n"));
  EXPECT_NE(empty.find("non-empty list"), std::string::npos) << empty;
  const std::string unknown = colocate_error_of(pairs_scenario(
      "    - {ls: {model: resnet50, batch: 8, slo_ms: 4, arrivals: {kind: poisson, rate_per_s: 100}}, be: {model: resnet152, batch: 64, x: 1}}\n"));
  EXPECT_NE(unknown.find("c.yaml:6:"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("'workload.pairs.0.be.x'"), std::string::npos) << unknown;
  // The fixed budget share is gone (SGDRC sizes LS by queueing at its load): the key is refused.
  const std::string budget = colocate_error_of(pairs_scenario(kTwoPairs, "  sgdrc_slo_budget: 0.5\n"));
  EXPECT_NE(budget.find("sgdrc_slo_budget"), std::string::npos) << budget;
}

TEST(ColocateWorkload, IllegalLayoutsNameTheRule) {
  const std::string overlap = colocate_error_of(
      scenario_with("  mig: {ls: {profile: 4g.71gb, start: 0}, be: {profile: 3g.71gb, start: 0}}\n"));
  EXPECT_NE(overlap.find("rule 'memory slices overlap'"), std::string::npos) << overlap;
  EXPECT_NE(overlap.find("c.yaml:9:"), std::string::npos) << overlap;
  const std::string start = colocate_error_of(
      scenario_with("  mig: {ls: {profile: 4g.71gb, start: 0}, be: {profile: 3g.71gb, start: 2}}\n"));
  EXPECT_NE(start.find("rule 'placement start'"), std::string::npos) << start;
  const std::string green = colocate_error_of(scenario_with("  static_ls_sms: 60\n"));
  EXPECT_NE(green.find("rule 'green-context granularity'"), std::string::npos) << green;
  EXPECT_NE(colocate_error_of(scenario_with("  trace_policy: orion\n")).find("not among"), std::string::npos);
}

// Issue 5: under mig each model must fit its instance's memory; other policies do not split memory.
std::string llama_on(const std::string& ls_profile, const std::string& policies) {
  return "name: c\nhardware: h200x1\nworkload:\n  kind: colocate\n  ls: {model: llama2_13b, batch: 1, arrivals: {kind: "
         "poisson, rate_per_s: 10}, slo_ms: 100}\n  be: {model: resnet152, batch: 64}\n  duration_s: 0.1\n  policies: " +
         policies + "\n  mig: {ls: {profile: " + ls_profile + ", start: 0}, be: {profile: 3g.71gb, start: 4}}\n";
}

TEST(ColocateWorkload, MigInstancesMustHoldTheirModelsWeights) {
  const std::string e = colocate_error_of(llama_on("1g.18gb", "[mig, sgdrc]"));
  EXPECT_NE(e.find("c.yaml:9:13"), std::string::npos) << e;  // the ls instance's mapping
  EXPECT_NE(e.find("needs 24.2 GiB (26031728640 bytes)"), std::string::npos) << e;
  EXPECT_NE(e.find("(1g.18gb at memory slice 0) holds: 16.5 GiB (17716740096 bytes)"), std::string::npos) << e;
  EXPECT_EQ(colocate_error_of(llama_on("1g.18gb", "[sgdrc]")), "");  // mig not run: no MIG split to fit
  EXPECT_EQ(colocate_error_of(llama_on("1g.35gb", "[mig]")), "");   // 24.2 GiB in 32.5
}

}  // namespace
}  // namespace parallax

// File: tests/cli/training_cli_test.cpp
// `parallax run` for workload kind training as a user runs it: the summary's fields and their
// arithmetic, identical bytes for two runs, H100 faster than A100 on one layout, the overlap
// selector never slower than the models' sequential baseline, the layout search, and exit 2 with
// the place for a layout that does not fit or cannot be cut.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <tuple>

#include "tests/support/cli_harness.h"

namespace fs = std::filesystem;

namespace {

using namespace parallax::cli_test;

const std::string kSmall = (kSource / "tests/data/training/small.yaml").string();
const std::string kSmallMoe = (kSource / "tests/data/training/small-moe.yaml").string();

nlohmann::json run_small(const std::string& name, const std::string& sets = "") {
  const fs::path out = fresh_temp_dir("parallax_training_cli", name);
  const Result r = run("run " + kSmall + " --quiet " + sets + " --out " + out.string());
  EXPECT_EQ(r.code, 0) << r.output;
  return nlohmann::json::parse(slurp(out / "summary.json"));
}

TEST(TrainingCli, SummaryFieldsAddUp) {
  const nlohmann::json s = run_small("fields");
  const double step = s.at("step_time_s");
  ASSERT_GT(step, 0);
  EXPECT_EQ(s.at("gpus"), 16);
  EXPECT_EQ(s.at("micro_batches"), 8);  // 32 sequences / dp 2 / micro_batch 2
  EXPECT_NEAR(s.at("tflops_per_gpu").get<double>(), s.at("flops_per_step").get<double>() / step / 16 / 1e12, 1e-9);
  ASSERT_EQ(s.at("stages").size(), 2u);
  double idle = 0;
  for (const auto& st : s.at("stages")) {
    EXPECT_NEAR(st.at("compute_s").get<double>() + st.at("exposed_comm_s").get<double>() + st.at("idle_s").get<double>(),
                step, 1e-9);
    EXPECT_GT(st.at("exposed_comm_s").get<double>(), 0);
    idle += st.at("idle_s").get<double>();
  }
  EXPECT_NEAR(s.at("bubble_fraction").get<double>(), idle / 2 / step, 1e-9);
  EXPECT_GT(s.at("bubble_fraction").get<double>(), 0);
  EXPECT_LE(s.at("memory_per_gpu_bytes").get<double>(), s.at("gpu_memory_bytes").get<double>());
}

TEST(TrainingCli, TwoRunsGiveIdenticalBytes) {
  std::string first[2];
  for (int i = 0; i < 2; ++i) {
    const fs::path out = fresh_temp_dir("parallax_training_cli", "det" + std::to_string(i));
    const Result r = run("run " + kSmall + " --quiet --out " + out.string());
    ASSERT_EQ(r.code, 0) << r.output;
    const std::string both = slurp(out / "summary.json") + slurp(out / "trace.json");
    if (i == 0) {
      first[0] = both;
    } else {
      EXPECT_EQ(both, first[0]);
    }
  }
}

TEST(TrainingCli, H100IsFasterThanA100) {
  const double a100 = run_small("a100").at("step_time_s");
  const double h100 = run_small("h100", "--set hardware.preset=dgx-h100").at("step_time_s");
  EXPECT_LT(h100, a100);
}

TEST(TrainingCli, OverlapSelectorIsNoSlowerThanItsSequentialBaseline) {
  const nlohmann::json s = run_small("auto_overlap", "--set workload.overlap.strategy=auto");
  EXPECT_LE(s.at("step_time_s").get<double>(), s.at("step_time_sequential_s").get<double>());
  EXPECT_NEAR(s.at("overlap_speedup").get<double>(),
              s.at("step_time_sequential_s").get<double>() / s.at("step_time_s").get<double>(), 1e-9);
  const nlohmann::json seq = run_small("seq_overlap", "--set workload.overlap.strategy=sequential");
  EXPECT_DOUBLE_EQ(seq.at("overlap_speedup").get<double>(), 1.0);
}

TEST(TrainingCli, AutoKeepsTheFastestLayoutThatFits) {
  const nlohmann::json s = run_small("auto", "--set workload.micro_batch=auto --set workload.schedule=auto");
  const auto& search = s.at("layout_search");
  ASSERT_GT(search.size(), 3u);
  for (const auto& row : search)
    if (row.at("fits").get<bool>()) {
      EXPECT_GE(row.at("step_time_s").get<double>(), s.at("step_time_s").get<double>());
    }
}

TEST(TrainingCli, ALayoutThatDoesNotFitIsExitTwoAtTheMicroBatch) {
  const fs::path dir = fresh_temp_dir("parallax_training_cli", "oom");
  std::string yaml = slurp(kSmall);
  yaml.replace(yaml.find("micro_batch: 2"), 14, "micro_batch: 16");
  yaml.replace(yaml.find("recompute: selective"), 20, "recompute: none");
  yaml.replace(yaml.find("hidden: 2048"), 12, "hidden: 8192");
  yaml.replace(yaml.find("layers: 8"), 9, "layers: 48");
  const fs::path file = dir / "oom.yaml";
  std::ofstream(file) << yaml;
  const Result r = run("run " + file.string() + " --quiet");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find(file.string() + ":12:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("does not fit in GPU memory"), std::string::npos) << r.output;
}

TEST(TrainingCli, LayoutErrorsNameTheKey) {
  for (const auto& [set, expect] : std::initializer_list<std::pair<std::string, std::string>>{
           {"workload.parallel.tp=3", "'workload.model.heads': heads 16 is not divisible by parallel.tp 3"},
           {"workload.parallel.dp=8", "tp·pp·dp = 4·2·8 = 64 GPUs, the cluster has 16"},
           {"workload.micro_batch=3", "not a multiple of micro_batch 3"},
           {"workload.schedule=1f1c", "did you mean '1f1b'"}}) {
    const Result r = run("run " + kSmall + " --quiet --set " + set);
    EXPECT_EQ(r.code, 2) << set << ": " << r.output;
    EXPECT_NE(r.output.find(expect), std::string::npos) << set << ": " << r.output;
  }
}

// Mixture of experts: the summary names the MoE layout, its FLOPs count the experts, and the
// reduced step's time is what `kind: chakra` replays from every rank (each EP block's all-to-alls
// on its own GPUs, the expert gradients on the replicas that hold the experts), exactly.
TEST(TrainingCli, MoeStepReportsItsExpertsAndReplaysExactly) {
  const fs::path dir = fresh_temp_dir("parallax_training_cli", "moe");
  const fs::path ets = dir / "ets";
  const Result w = run("run " + kSmallMoe + " --quiet --out " + (dir / "training").string() + " --chakra-out " + ets.string());
  ASSERT_EQ(w.code, 0) << w.output;
  const nlohmann::json t = nlohmann::json::parse(slurp(dir / "training" / "summary.json"));
  EXPECT_EQ(t.at("parallel").at("ep"), 4);
  EXPECT_EQ(t.at("model").at("moe").at("experts"), 8);
  // Per GPU: 2 MoE layers × 8/4 experts × (8h² + 5h) / tp 4.
  const double h = 2048;
  EXPECT_NEAR(t.at("stages")[0].at("expert_parameters").get<double>(), 2 * 2 * (8 * h * h + 5 * h) / 4, 1);
  // Step FLOPs: the dense model's plus, per MoE layer, one more expert FFN and the router.
  const double B = 16, s = 1024, V = 51200, L = 4;
  const double expected = 3 * (L * (24 * B * s * h * h + 4 * B * s * s * h) + 2 * (16 * B * s * h * h + 2 * B * s * h * 8) +
                               2 * B * s * h * V) + L * 4 * B * s * s * h;  // + selective recomputation
  EXPECT_NEAR(t.at("flops_per_step").get<double>() / expected, 1.0, 1e-12);
  const fs::path replay = dir / "replay.yaml";
  std::ofstream(replay) << "name: replay\nseed: 1\nhardware: {preset: dgx-a100, nodes: 4}\n"
                        << "workload: {kind: chakra, trace: " << ets.string() << "}\n";
  const Result c = run("run " + replay.string() + " --quiet --out " + (dir / "chakra").string());
  ASSERT_EQ(c.code, 0) << c.output;
  const nlohmann::json k = nlohmann::json::parse(slurp(dir / "chakra" / "summary.json"));
  EXPECT_EQ(k.at("step_time_s").get<double>(), t.at("step_time_s").get<double>());
}

// Expert layouts the reader refuses: exit 2 at the offending key's line and column.
TEST(TrainingCli, MoeLayoutErrorsPointAtTheKey) {
  const fs::path dir = fresh_temp_dir("parallax_training_cli", "moe-errors");
  const std::string yaml = slurp(kSmallMoe);
  for (const auto& [from, to, where, expect] : std::initializer_list<std::tuple<std::string, std::string, std::string, std::string>>{
           {"ep: 4}", "ep: 3}", ":17:39:", "ep 3 does not divide parallel.dp 8"},
           {"experts: 8,", "experts: 6,", ":17:39:", "ep 4 does not divide model.moe.experts 6"},
           {"every: 2,", "every: 3,", ":16:40:", "a stage's 4 layers (layers / pp) are not a multiple of every 3"},
           {"top_k: 2,", "top_k: 9,", ":16:30:", "'workload.model.moe.top_k' must be at most 8"},
           {"capacity_factor: 1.25", "capacity: 1.25", ":16:43:", "unknown key 'workload.model.moe.capacity'"}}) {
    std::string bad = yaml;
    bad.replace(bad.find(from), from.size(), to);
    const fs::path file = dir / "bad.yaml";
    std::ofstream(file) << bad;
    const Result r = run("run " + file.string() + " --quiet");
    EXPECT_EQ(r.code, 2) << to << ": " << r.output;
    EXPECT_NE(r.output.find(file.string() + where), std::string::npos) << to << ": " << r.output;
    EXPECT_NE(r.output.find(expect), std::string::npos) << to << ": " << r.output;
  }
  // Expert parallelism on a dense model.
  const Result r = run("run " + kSmall + " --quiet --set workload.parallel.ep=2");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("expert parallelism needs MoE layers"), std::string::npos) << r.output;
}

// `bench training --gpus`: the scenario grown by data parallelism (dp = GPUs / tp·pp, 4 GPUs per
// replica here), one row per point; a count the layout cannot take is exit 2.
TEST(TrainingCli, BenchGrowsTheScenarioByDataParallelism) {
  const Result r = run("bench training --scenario " + kSmallMoe + " --gpus 32 --gpus 64");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("training-small-moe  dgx-a100    32   8"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("training-small-moe  dgx-a100    64  16"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("GPUs^"), std::string::npos) << r.output;
  const Result bad = run("bench training --scenario " + kSmallMoe + " --gpus 40");
  EXPECT_EQ(bad.code, 2) << bad.output;
  EXPECT_NE(bad.output.find("40 GPUs for 'training-small-moe': not a multiple of 8 GPUs per node"), std::string::npos)
      << bad.output;
}

// The two training paths on one step: --chakra-out writes the chosen step's every rank as ETs,
// `kind: chakra` replays them on the same machine; the step time is the same, exactly (both run
// the same per-GPU kernels and fabric traffic, every_rank_step.h; simulated time is integer ticks).
// Two nodes here (the stages' sends cross the fabric); the one-node case is in
// sim/policies/training/every_rank_step_test.cpp.
TEST(TrainingCli, ChakraReplayOfTheWrittenStepHasTheSameStepTime) {
  const fs::path dir = fresh_temp_dir("parallax_training_cli", "chakra");
  const fs::path ets = dir / "ets";
  const Result w = run("run " + kSmall + " --quiet --out " + (dir / "training").string() + " --chakra-out " + ets.string());
  ASSERT_EQ(w.code, 0) << w.output;
  for (int r = 0; r < 16; ++r) EXPECT_TRUE(fs::exists(ets / ("training." + std::to_string(r) + ".et"))) << r;
  const fs::path replay = dir / "replay.yaml";
  std::ofstream(replay) << "name: replay\nseed: 1\nhardware: {preset: dgx-a100, nodes: 2}\n"
                        << "workload: {kind: chakra, trace: " << ets.string() << "}\n";
  const Result c = run("run " + replay.string() + " --quiet --out " + (dir / "chakra").string());
  ASSERT_EQ(c.code, 0) << c.output;
  const nlohmann::json t = nlohmann::json::parse(slurp(dir / "training" / "summary.json"));
  const nlohmann::json k = nlohmann::json::parse(slurp(dir / "chakra" / "summary.json"));
  EXPECT_GT(t.at("step_time_s").get<double>(), 0);
  EXPECT_EQ(k.at("step_time_s").get<double>(), t.at("step_time_s").get<double>());
  // Another kind has no step to write: exit 2, naming the option.
  const Result bad = run("run " + replay.string() + " --quiet --chakra-out " + (dir / "x").string());
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.output.find("--chakra-out"), std::string::npos) << bad.output;
}

// The shipped set traces/chakra/training_tp2_pp2_dp2 is what --chakra-out writes today, byte
// for byte, and its replay scenario gives the training scenario's step time, exactly.
TEST(TrainingCli, ShippedTrainingEtsAreFreshAndReplayToTheSameStep) {
  const fs::path dir = fresh_temp_dir("parallax_training_cli", "shipped");
  const Result w = run("run " + (kSource / "scenarios/training/gpt-small-tp2-pp2-dp2.yaml").string() + " --quiet --out " +
                       (dir / "training").string() + " --chakra-out " + (dir / "ets").string());
  ASSERT_EQ(w.code, 0) << w.output;
  const fs::path shipped = kSource / "traces/chakra/training_tp2_pp2_dp2";
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir / "ets")) {
    ++files;
    EXPECT_EQ(slurp(e.path()), slurp(shipped / e.path().filename())) << e.path().filename();
  }
  EXPECT_EQ(files, 8u);
  EXPECT_EQ(static_cast<size_t>(std::distance(fs::directory_iterator(shipped), fs::directory_iterator())), files);
  const Result c = run("run " + (kSource / "scenarios/chakra/training-tp2-pp2-dp2.yaml").string() + " --quiet --out " +
                       (dir / "chakra").string());
  ASSERT_EQ(c.code, 0) << c.output;
  const double training_s = nlohmann::json::parse(slurp(dir / "training" / "summary.json")).at("step_time_s");
  const double chakra_s = nlohmann::json::parse(slurp(dir / "chakra" / "summary.json")).at("step_time_s");
  EXPECT_GT(training_s, 0);
  EXPECT_EQ(chakra_s, training_s);
}

}  // namespace

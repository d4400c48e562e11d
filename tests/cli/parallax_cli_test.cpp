// File: tests/cli/parallax_cli_test.cpp
// The `parallax` binary as a user runs it: exit codes, located error messages, the golden
// quickstart summary, byte-identical outputs for the same scenario and seed, and the SimGrid
// anchor workloads against their closed forms (../shared/anchors/simgrid/README.md).
//
// Golden file: tests/golden/quickstart_summary.json. After a deliberate change in behaviour,
// refresh it with PARALLAX_UPDATE_GOLDEN=1 meson test -C build parallax_cli, and review the diff.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

#include "tests/support/cli_harness.h"

namespace fs = std::filesystem;

namespace {


using namespace parallax::cli_test;

fs::path temp_dir(const std::string& name) { return fresh_temp_dir("parallax_cli_test", name); }

std::string scenario(const std::string& rel) { return (kSource / rel).string(); }

nlohmann::json summary(const fs::path& dir) { return nlohmann::json::parse(slurp(dir / "summary.json")); }

// The build's commit legitimately differs between builds (wall-clock figures are in timing.json).
nlohmann::json deterministic_part(nlohmann::json s) {
  s.erase("git_commit");
  return s;
}

TEST(ParallaxCli, QuickstartRunsAndPrintsATable) {
  Result r = run("run");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("quickstart"), std::string::npos);
  EXPECT_NE(r.output.find("grad-allreduce"), std::string::npos);
  EXPECT_NE(r.output.find("busiest links"), std::string::npos);
}

TEST(ParallaxCli, VersionAndHelp) {
  EXPECT_EQ(run("--version").code, 0);
  Result h = run("run --help");
  EXPECT_EQ(h.code, 0);
  EXPECT_NE(h.output.find("--set"), std::string::npos);
  EXPECT_EQ(run("bench --help").code, 0);
  EXPECT_EQ(run("no-such-command").code, 2);
}

TEST(ParallaxCli, GoldenQuickstartSummary) {
  const fs::path out = temp_dir("golden");
  Result r = run("run --quiet --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const nlohmann::json got = deterministic_part(summary(out));
  const fs::path golden = kSource / "tests/golden/quickstart_summary.json";
  if (std::getenv("PARALLAX_UPDATE_GOLDEN")) {
    std::ofstream(golden) << got.dump(2) << "\n";
    GTEST_SKIP() << "golden file rewritten: " << golden;
  }
  ASSERT_TRUE(fs::exists(golden)) << "missing " << golden;
  EXPECT_EQ(got, nlohmann::json::parse(slurp(golden))) << "diff the run in " << out << " against " << golden;
  fs::remove_all(out);
}

TEST(ParallaxCli, SameScenarioAndSeedGiveIdenticalBytes) {
  const fs::path a = temp_dir("det_a"), b = temp_dir("det_b");
  ASSERT_EQ(run("run --quiet --seed 7 --out " + a.string()).code, 0);
  ASSERT_EQ(run("run --quiet --seed 7 --out " + b.string()).code, 0);
  EXPECT_EQ(slurp(a / "activities.csv"), slurp(b / "activities.csv"));
  EXPECT_EQ(slurp(a / "trace.json"), slurp(b / "trace.json"));
  EXPECT_EQ(deterministic_part(summary(a)), deterministic_part(summary(b)));
  EXPECT_EQ(summary(a)["seed"], 7);
  for (const auto& e : fs::directory_iterator(a))
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
  fs::remove_all(a);
  fs::remove_all(b);
}

TEST(ParallaxCli, BadInputExitsTwoWithAPlace) {
  const fs::path d = temp_dir("bad");
  std::ofstream(d / "typo.yaml") << "name: t\nhardware: dgx-h100\nworkload:\n  kind: transfers\n  transferz: []\n";
  Result r = run("run " + (d / "typo.yaml").string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("typo.yaml:5:3:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("did you mean 'transfers'"), std::string::npos) << r.output;

  std::ofstream(d / "preset.yaml") << "name: t\nhardware: dgx-h10\nworkload: {kind: transfers}\n";
  r = run("run " + (d / "preset.yaml").string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("preset.yaml:2:11:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("dgx-h100"), std::string::npos) << r.output;

  r = run("run --set hardware.gpus=0");
  EXPECT_EQ(r.code, 2) << r.output;
  r = run("run --set nonsense");
  EXPECT_EQ(r.code, 2) << r.output;
  r = run("run " + (d / "missing.yaml").string());
  EXPECT_EQ(r.code, 2) << r.output;
  r = run("run " + d.string());  // a directory given as a file
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("is a directory"), std::string::npos) << r.output;
  fs::remove_all(d);
}

double makespan_of(const std::string& args) {
  const fs::path out = temp_dir("anchor");
  Result r = run("run --quiet " + args + " --out " + out.string());
  EXPECT_EQ(r.code, 0) << r.output;
  const double m = summary(out)["makespan_s"].get<double>();
  fs::remove_all(out);
  return m;
}

// T_ring = 2(P-1) * (2 us + floor(BYTES/P) / 300 GB/s)
TEST(ParallaxCliAnchor, RingMatchesTheClosedForm) {
  for (int p : {8, 64}) {
    const double analytic = 2.0 * (p - 1) * (2e-6 + static_cast<double>((int64_t{1} << 30) / p) / 300e9);
    const double got = makespan_of(scenario("scenarios/bench/ring.yaml") + " --set hardware.gpus=" + std::to_string(p));
    EXPECT_NEAR(got / analytic - 1, 0, 1e-7) << "P=" << p;
  }
}

// T_hybrid = 14 * (3 us + floor(BYTES/8) / (25 GB/s, or 12.5 GB/s with a shared uplink))
TEST(ParallaxCliAnchor, HybridMatchesTheClosedForm) {
  for (int64_t bytes : {int64_t{1} << 20, int64_t{1} << 30}) {
    const std::string base = scenario("scenarios/bench/hybrid.yaml") +
                             " --set output.trace=false --set workload.collectives.0.bytes=" + std::to_string(bytes);
    const double c = static_cast<double>(bytes / 8);
    EXPECT_NEAR(makespan_of(base) / (14 * (3e-6 + c / 25e9)) - 1, 0, 1e-7);
    EXPECT_NEAR(makespan_of(base + " --set hardware.topology.uplink.duplex=half") / (14 * (3e-6 + c / 12.5e9)) - 1,
                0, 1e-7);
  }
}

// SimGrid 3.32 on the same 1,000 transfers: makespan 1.015542378145 s, sum of completions
// 484.8397003055 s (../shared/anchors/simgrid/README.md, results table).
TEST(ParallaxCliAnchor, RandomMatchesSimGrid) {
  const fs::path out = temp_dir("random");
  ASSERT_EQ(run("run --quiet " + scenario("scenarios/bench/random.yaml") + " --out " + out.string()).code, 0);
  const nlohmann::json s = summary(out);
  EXPECT_NEAR(s["makespan_s"].get<double>() / 1.015542378145 - 1, 0, 1e-7);
  EXPECT_NEAR(s["transfers"]["sum_completion_s"].get<double>() / 484.8397003055 - 1, 0, 1e-7);
  EXPECT_EQ(s["transfers"]["count"], 1000);
  fs::remove_all(out);
}

// Clusters from the command line: --nodes multiplies the preset's box (its fabric joins them),
// presets without a fabric refuse it; the shipped cluster scenario runs every op; bench fabric
// runs a small point.
TEST(ParallaxCliFabric, NodesSpanTheClusterAndBenchRuns) {
  const Result ok = run("predict collective --hardware dgx-h100 --nodes 2 --gpus 16 --op all_reduce --bytes 1GiB");
  ASSERT_EQ(ok.code, 0) << ok.output;
  EXPECT_EQ(nlohmann::json::parse(ok.output)["gpus"], 16);
  const Result too_many = run("predict collective --hardware dgx-h100 --nodes 2 --gpus 17 --op all_reduce --bytes 1GiB");
  EXPECT_EQ(too_many.code, 2);
  EXPECT_NE(too_many.output.find("spread evenly over the 2 nodes of 'dgx-h100' (2..16 GPUs"), std::string::npos) << too_many.output;
  const Result no_fabric = run("predict collective --hardware h200x1 --nodes 2 --gpus 2 --op all_reduce --bytes 1GiB");
  EXPECT_EQ(no_fabric.code, 2);
  EXPECT_NE(no_fabric.output.find("--nodes: 'h200x1' has no fabric"), std::string::npos) << no_fabric.output;
  const fs::path out = temp_dir("fabric");
  ASSERT_EQ(run("run --quiet " + scenario("scenarios/cluster/fabric-collectives.yaml") + " --out " + out.string()).code, 0);
  EXPECT_EQ(summary(out)["collectives"].size(), 8u);
  fs::remove_all(out);
  const Result bench = run("bench fabric --nodes 2 --op all_reduce --op all_to_all --bytes 1MiB --routes 100");
  ASSERT_EQ(bench.code, 0) << bench.output;
  EXPECT_NE(bench.output.find("hierarchical"), std::string::npos) << bench.output;
  EXPECT_NE(bench.output.find("Routes on 2 nodes (16 GPUs): 100 random GPU pairs"), std::string::npos) << bench.output;
}

}  // namespace

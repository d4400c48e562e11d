// File: tools/multiplex_cli_test.cpp
// `parallax run` for the multiplex and cluster_packing kinds as a user runs it: golden summaries
// (tests/golden/multiplex_small_summary.json, tests/golden/packing_sample_summary.json), identical
// bytes for two runs of a bursty scenario, and exit 2 with file:line for a malformed pod row.
// After a deliberate change in behaviour refresh the golden files with
// PARALLAX_UPDATE_GOLDEN=1 meson test -C BUILD multiplex_cli, and review the diff.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/cli_harness.h"

namespace fs = std::filesystem;

namespace {


using namespace parallax::cli_test;

fs::path temp_dir(const std::string& name) { return fresh_temp_dir("parallax_mux_cli", name); }

// The build's commit and the resolved input paths differ between checkouts.
nlohmann::json deterministic_part(const fs::path& dir) {
  nlohmann::json s = nlohmann::json::parse(slurp(dir / "summary.json"));
  for (const char* k : {"git_commit", "pods_file", "nodes_file"}) s.erase(k);
  return s;
}

void expect_golden(const std::string& scenario, const std::string& golden_name) {
  const fs::path out = temp_dir(golden_name);
  const Result r = run("run " + (kSource / scenario).string() + " --quiet --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const nlohmann::json got = deterministic_part(out);
  const fs::path golden = kSource / "tests/golden" / golden_name;
  if (std::getenv("PARALLAX_UPDATE_GOLDEN")) {
    std::ofstream(golden) << got.dump(2) << "\n";
    GTEST_SKIP() << "golden file rewritten: " << golden;
  }
  ASSERT_TRUE(fs::exists(golden)) << "missing " << golden;
  EXPECT_EQ(got, nlohmann::json::parse(slurp(golden))) << "diff the run in " << out << " against " << golden;
  fs::remove_all(out);
}

TEST(MultiplexCli, GoldenSmallBurstySummary) {
  expect_golden("tests/data/multiplex/small-bursty.yaml", "multiplex_small_summary.json");
}

TEST(MultiplexCli, GoldenPackingSampleSummary) {
  expect_golden("scenarios/multiplex/alibaba-openb-packing.yaml", "packing_sample_summary.json");
}

TEST(MultiplexCli, BurstyRunTwiceGivesIdenticalBytes) {
  const fs::path a = temp_dir("det_a"), b = temp_dir("det_b");
  const std::string sc = (kSource / "tests/data/multiplex/small-bursty.yaml").string();
  ASSERT_EQ(run("run " + sc + " --quiet --out " + a.string()).code, 0);
  ASSERT_EQ(run("run " + sc + " --quiet --out " + b.string()).code, 0);
  for (const char* f : {"summary.json", "trace.json", "shares.csv"}) {
    ASSERT_TRUE(fs::exists(a / f)) << f;
    EXPECT_EQ(slurp(a / f), slurp(b / f)) << f;
  }
  fs::remove_all(a);
  fs::remove_all(b);
}

TEST(MultiplexCli, MalformedPodRowExitsTwoWithFileAndLine) {
  const Result r = run("run " + (kSource / "tests/data/multiplex/bad-pods.yaml").string() + " --quiet");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("bad_pod_row.csv:3:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("gpu_milli"), std::string::npos) << r.output;
}

// Weights that cannot fit: all services on the whole GPU (mps), or each on a MIG instance.
TEST(MultiplexCli, WeightsBeyondTheGpuExitTwoAtTheServices) {
  const Result r = run("run " + (kSource / "tests/data/multiplex/weights-exceed-gpu.yaml").string() + " --quiet");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("weights-exceed-gpu.yaml:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("weights need 145 GiB together"), std::string::npos) << r.output;
}

TEST(MultiplexCli, WeightsThatLeaveNoMigLayoutExitTwo) {
  const Result r = run("run " + (kSource / "tests/data/multiplex/weights-no-mig-layout.yaml").string() + " --quiet");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("policy mig: MIG search: no legal layout"), std::string::npos) << r.output;
}

}  // namespace

// File: tests/cli/colocate_cli_test.cpp
// `parallax run` for the colocate kind as a user runs it: the golden summary of a short bursty mix
// (tests/golden/colocate_small_summary.json), identical bytes for two runs (summary.json,
// trace.json, kernels.csv), the timeline's slowdown counters and request arrows, and exit 2 with
// file:line:col and the rule for an illegal MIG layout. After a deliberate change in behaviour
// refresh the golden file with PARALLAX_UPDATE_GOLDEN=1 meson test -C BUILD colocate_cli, and
// review the diff.
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

const std::string kSmall = "tests/data/colocate/small-bursty.yaml";

using namespace parallax::cli_test;

fs::path temp_dir(const std::string& name) { return fresh_temp_dir("parallax_colo_cli", name); }

fs::path run_small(const std::string& name) {
  const fs::path out = temp_dir(name);
  const Result r = run("run " + (kSource / kSmall).string() + " --quiet --out " + out.string());
  EXPECT_EQ(r.code, 0) << r.output;
  return out;
}

TEST(ColocateCli, GoldenSmallBurstySummary) {
  const fs::path out = run_small("golden");
  nlohmann::json got = nlohmann::json::parse(slurp(out / "summary.json"));
  got.erase("git_commit");  // differs between builds
  const fs::path golden = kSource / "tests/golden/colocate_small_summary.json";
  if (std::getenv("PARALLAX_UPDATE_GOLDEN")) {
    std::ofstream(golden) << got.dump(2) << "\n";
    GTEST_SKIP() << "golden file rewritten: " << golden;
  }
  ASSERT_TRUE(fs::exists(golden)) << "missing " << golden;
  EXPECT_EQ(got, nlohmann::json::parse(slurp(golden))) << "diff the run in " << out << " against " << golden;
  // What the issue asks of every policy, whatever the numbers.
  for (const auto& [name, p] : got["policies"].items()) {
    for (const char* k : {"ls_slo_attainment", "ls_p99_latency_s", "be_throughput", "sm_utilisation", "hbm_utilisation"})
      EXPECT_TRUE(p.contains(k)) << name << " has no " << k;
    EXPECT_EQ(p["ls_requests_finished"], p["ls_requests_arrived"]) << name;
  }
  EXPECT_EQ(got["comparison"]["policy"], "sgdrc");
  fs::remove_all(out);
}

TEST(ColocateCli, RunTwiceGivesIdenticalBytes) {
  const fs::path a = run_small("det_a"), b = run_small("det_b");
  for (const char* f : {"summary.json", "trace.json", "kernels.csv"}) {
    ASSERT_TRUE(fs::exists(a / f)) << f;
    EXPECT_EQ(slurp(a / f), slurp(b / f)) << f;
  }
  fs::remove_all(a);
  fs::remove_all(b);
}

// The timeline shows where each kernel ran and how much slower than alone: partition args on the
// kernel slices, slowdown counters for LS and BE, LS requests with arrows to their kernels; and
// kernels.csv has one row per kernel with slowdown >= 1 for LS kernels under SGDRC's partitions
// (a kernel never beats its isolated time on the whole GPU).
TEST(ColocateCli, TimelineShowsPartitionsAndSlowdown) {
  const fs::path out = run_small("timeline");
  const std::string trace = slurp(out / "trace.json");
  EXPECT_NE(trace.find("\"partition\":\"sgdrc-ls\""), std::string::npos);
  EXPECT_NE(trace.find("\"partition\":\"sgdrc-be\""), std::string::npos);
  EXPECT_NE(trace.find("LS kernel slowdown"), std::string::npos);
  EXPECT_NE(trace.find("BE kernel slowdown"), std::string::npos);
  EXPECT_NE(trace.find("LS requests"), std::string::npos);
  std::istringstream csv(slurp(out / "kernels.csv"));
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, "id,tenant,kernel,partition,sms,start_s,end_s,solo_s,slowdown,alpha,eviction_wait_s");
  int ls_rows = 0;
  while (std::getline(csv, line)) {
    std::vector<std::string> cells;
    std::stringstream row(line);
    for (std::string c; std::getline(row, c, ',');) cells.push_back(c);
    ASSERT_EQ(cells.size(), 11u) << line;
    if (cells[1] != "ls") continue;
    ++ls_rows;
    EXPECT_EQ(cells[3], "sgdrc-ls") << line;
    EXPECT_GE(std::stod(cells[8]), 0.9999) << line;
  }
  EXPECT_GT(ls_rows, 100);
  fs::remove_all(out);
}

// Issue 5: every kernel's slice in trace.json carries its partition, the SMs it may use, its solo
// time, slowdown, interference alpha and eviction wait, consistent with its own duration
// (duration = slowdown x solo) and with kernels.csv (one row per such slice).
TEST(ColocateCli, EveryKernelSliceCarriesItsSlowdown) {
  const fs::path out = run_small("slice_args");
  const nlohmann::json trace = nlohmann::json::parse(slurp(out / "trace.json"));
  int slices = 0, ls = 0, waited = 0;
  for (const nlohmann::json& e : trace.at("traceEvents")) {
    if (e.at("ph") != "X" || e.value("cat", "") != "kernel") continue;
    ++slices;
    const nlohmann::json& a = e.at("args");
    for (const char* key : {"partition", "sms", "solo_s", "slowdown", "alpha", "eviction_wait_s"})
      ASSERT_TRUE(a.contains(key)) << key << " missing in " << e.dump();
    const double dur_us = e.at("dur").get<double>();
    const double from_args_us = a.at("slowdown").get<double>() * a.at("solo_s").get<double>() * 1e6;
    EXPECT_NEAR(dur_us, from_args_us, 1e-9 * dur_us + 1e-6) << e.dump();
    EXPECT_GT(a.at("solo_s").get<double>(), 0) << e.dump();
    EXPECT_GE(a.at("sms").get<double>(), 2) << e.dump();
    EXPECT_LE(a.at("sms").get<double>(), 132) << e.dump();
    EXPECT_GE(a.at("alpha").get<double>(), 1) << e.dump();
    const bool is_ls = a.at("partition") == "sgdrc-ls";
    ls += is_ls;
    if (!is_ls) {
      EXPECT_EQ(a.at("eviction_wait_s").get<double>(), 0) << e.dump();  // only LS waits for BE
    }
    waited += is_ls && a.at("eviction_wait_s").get<double>() > 0;
  }
  std::istringstream csv(slurp(out / "kernels.csv"));
  int rows = -1;  // the header
  for (std::string line; std::getline(csv, line);) ++rows;
  EXPECT_EQ(slices, rows);
  EXPECT_GT(ls, 100);
  EXPECT_GT(waited, 0);  // the bursty mix makes some LS kernels wait for a BE kernel
  fs::remove_all(out);
}

TEST(ColocateCli, IllegalMigLayoutExitsTwoWithPlaceAndRule) {
  const Result r = run("run " + (kSource / "tests/data/colocate/bad-mig.yaml").string() + " --quiet");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("bad-mig.yaml:11:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("rule 'memory slices overlap'"), std::string::npos) << r.output;
  const Result kind = run("run " + (kSource / kSmall).string() + " --quiet --set workload.ls.arrivals.kind=bursty");
  EXPECT_EQ(kind.code, 2) << kind.output;
  EXPECT_NE(kind.output.find("'bursty'"), std::string::npos) << kind.output;
}

// Issue 5: a model whose weights exceed its MIG instance's memory cannot run there.
TEST(ColocateCli, WeightsBeyondTheMigInstanceExitTwoAtTheInstance) {
  const std::string file = (kSource / "tests/data/colocate/weights-exceed-mig.yaml").string();
  const Result r = run("run " + file + " --quiet");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("weights-exceed-mig.yaml:14:13:"), std::string::npos) << r.output;  // workload.mig.ls
  EXPECT_NE(r.output.find("the ls model 'llama2_13b' needs 24.2 GiB"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("MIG instance 'ls' (1g.18gb at memory slice 0) holds: 16.5 GiB"), std::string::npos)
      << r.output;
  const fs::path out = temp_dir("weights_fit");
  const Result fits = run("run " + file + " --quiet --set workload.mig.ls.profile=1g.35gb --out " + out.string());
  EXPECT_EQ(fits.code, 0) << fits.output;
}

TEST(ColocateCli, LsArrivalsFromTheAzureLlmTrace) {
  const fs::path out = temp_dir("azure_llm");
  const Result r = run("run " + (kSource / "tests/data/colocate/azure-llm.yaml").string() + " --quiet --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const nlohmann::json s = nlohmann::json::parse(slurp(out / "summary.json"));
  EXPECT_EQ(s["ls_arrivals_kind"], "azure_llm");
  // 0.2 s of the trace scaled to 3,000 requests/s: about 600 arrivals, burstier than Poisson.
  const double arrived = s["policies"]["sgdrc"]["ls_requests_arrived"].get<double>();
  EXPECT_GT(arrived, 300);
  EXPECT_LT(arrived, 900);
  EXPECT_EQ(arrived, s["policies"]["ls_alone"]["ls_requests_arrived"].get<double>());
  const Result missing = run("run " + (kSource / "tests/data/colocate/azure-llm.yaml").string() +
                             " --quiet --set workload.ls.arrivals.path=no-such-trace.csv");
  EXPECT_EQ(missing.code, 2) << missing.output;
  EXPECT_NE(missing.output.find("workload.ls.arrivals.path"), std::string::npos) << missing.output;
  fs::remove_all(out);
}

}  // namespace

// File: tests/cli/multiplex_cli_test.cpp
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
#include <map>
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
  for (const char* f : {"summary.json", "trace.json", "shares.csv", "timeline.csv"}) {
    ASSERT_TRUE(fs::exists(a / f)) << f;
    EXPECT_EQ(slurp(a / f), slurp(b / f)) << f;
  }
  fs::remove_all(a);
  fs::remove_all(b);
}

// timeline.csv: every policy's bins cover its window (the last one cut there), every service in
// every bin, and the time-weighted mean of the bins, summed over services, is the policy's
// sm_utilisation and hbm_utilisation in summary.json (within the CSV's 6 decimals).
TEST(MultiplexCli, BinnedUtilisationAveragesToTheSummary) {
  const fs::path out = temp_dir("timeline");
  ASSERT_EQ(run("run " + (kSource / "tests/data/multiplex/small-bursty.yaml").string() + " --quiet --out " +
                out.string()).code, 0);
  const nlohmann::json summary = nlohmann::json::parse(slurp(out / "summary.json"));
  std::istringstream csv(slurp(out / "timeline.csv"));
  std::string line;
  std::getline(csv, line);
  ASSERT_EQ(line, "policy,service,start_s,end_s,sm_utilisation,hbm_utilisation");
  std::map<std::string, double> sm, hbm, covered;
  std::map<std::string, int> rows;
  while (std::getline(csv, line)) {
    std::vector<std::string> c;
    std::stringstream row(line);
    for (std::string x; std::getline(row, x, ',');) c.push_back(x);
    ASSERT_EQ(c.size(), 6u) << line;
    const double width = std::stod(c[3]) - std::stod(c[2]);
    ASSERT_GT(width, 0) << line;
    sm[c[0]] += std::stod(c[4]) * width;
    hbm[c[0]] += std::stod(c[5]) * width;
    if (c[1] == summary.at("services").begin().key()) covered[c[0]] += width;
    ++rows[c[0]];
  }
  ASSERT_EQ(sm.size(), summary.at("policies").size());
  const size_t services = summary.at("services").size();
  for (const auto& [name, p] : summary.at("policies").items()) {
    const double window = p.at("window_s").get<double>();
    EXPECT_NEAR(covered[name], window, 1e-9 * window) << name;
    EXPECT_EQ(rows[name] % static_cast<int>(services), 0) << name;
    EXPECT_NEAR(sm[name] / window, p.at("sm_utilisation").get<double>(), 1e-6) << name;
    EXPECT_NEAR(hbm[name] / window, p.at("hbm_utilisation").get<double>(), 1e-6) << name;
    EXPECT_GT(p.at("hbm_utilisation").get<double>(), 0.01) << name;  // not trivially 0 = 0
  }
  fs::remove_all(out);
}

// mig_sizing: peak (issue 6, underfilled instances): each service's peak rate is in the summary
// and at least its mean; the bursty MMPP service qa then gets a bigger instance than under mean
// sizing (on the tile-level kernels, 1g.35gb instead of 1g.18gb in the shipped scenario: the same
// SMs but twice the memory slices, so twice the HBM bandwidth its memory-bound kernels bind on),
// and meets its SLO more often; the other policies do not depend on it.
TEST(MultiplexCli, PeakSizingGivesTheBurstyServiceABiggerInstance) {
  const std::string sc = (kSource / "scenarios/multiplex/bursty-h200.yaml").string() +
                         " --quiet --set 'workload.policies=[mps, mig]' --set workload.trace_policy=mig"
                         " --set workload.max_load_search.enabled=false";
  const fs::path mean = temp_dir("sizing_mean"), peak = temp_dir("sizing_peak");
  ASSERT_EQ(run("run " + sc + " --out " + mean.string()).code, 0);
  ASSERT_EQ(run("run " + sc + " --set workload.mig_sizing=peak --out " + peak.string()).code, 0);
  const nlohmann::json m = nlohmann::json::parse(slurp(mean / "summary.json"));
  const nlohmann::json p = nlohmann::json::parse(slurp(peak / "summary.json"));
  EXPECT_FALSE(m.contains("mig_sizing"));
  EXPECT_EQ(p.at("mig_sizing"), "peak");
  for (const auto& [name, svc] : p.at("services").items())
    EXPECT_GE(svc.at("peak_rate_per_s").get<double>(), svc.at("mean_rate_per_s").get<double>()) << name;
  const auto profile_of = [](const nlohmann::json& s, const std::string& service) {
    for (const nlohmann::json& i : s.at("policies").at("mig").at("mig_layout"))
      if (i.at("service") == service) return i.at("profile").get<std::string>();
    return std::string();
  };
  EXPECT_EQ(profile_of(m, "qa"), "1g.18gb");
  EXPECT_EQ(profile_of(p, "qa"), "1g.35gb");
  const auto qa_slo = [](const nlohmann::json& s) {
    return s.at("policies").at("mig").at("services").at("qa").at("slo_attainment").get<double>();
  };
  EXPECT_GT(qa_slo(p), qa_slo(m) + 0.1);
  EXPECT_EQ(p.at("policies").at("mps"), m.at("policies").at("mps"));
  fs::remove_all(mean);
  fs::remove_all(peak);
  const Result bad = run("run " + sc + " --set workload.mig_sizing=max");
  EXPECT_EQ(bad.code, 2) << bad.output;
  EXPECT_NE(bad.output.find("'max'"), std::string::npos) << bad.output;
  const Result pct = run("run " + sc + " --set workload.mig_peak_percentile=150");
  EXPECT_EQ(pct.code, 2) << pct.output;
  EXPECT_NE(pct.output.find("mig_peak_percentile"), std::string::npos) << pct.output;
}

// output.trace_limit bounds shares.csv's rows as it bounds trace.json (elastic changes shares
// at every kernel): the first N changes of the full file, and a note on stderr saying so.
TEST(MultiplexCli, TraceLimitKeepsTheFirstShareChanges) {
  const std::string sc = (kSource / "tests/data/multiplex/small-bursty.yaml").string() +
                         " --quiet --set workload.trace_policy=elastic";
  const fs::path all = temp_dir("shares_all"), cut = temp_dir("shares_cut");
  ASSERT_EQ(run("run " + sc + " --set output.trace_limit=0 --out " + all.string()).code, 0);
  const Result r = run("run " + sc + " --set output.trace_limit=5 --out " + cut.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("shares.csv holds the first 5 of"), std::string::npos) << r.output;
  const std::string full = slurp(all / "shares.csv"), head = slurp(cut / "shares.csv");
  size_t lines = 0;
  for (char c : head) lines += c == '\n';
  EXPECT_EQ(lines, 6u) << head;  // the header and five changes
  EXPECT_EQ(full.compare(0, head.size(), head), 0) << "not the first rows of the full file";
  EXPECT_GT(full.size(), head.size());
  fs::remove_all(all);
  fs::remove_all(cut);
}

// dynamic_mig (dynamic_mig_multiplex.h) re-cuts within the small scenario's 50 ms at its 1 ms
// cost, and a cost of 0 (a free re-cut would be decided at every event) is refused with exit 2.
TEST(MultiplexCli, DynamicMigReCutsAndRefusesAFreeReconfiguration) {
  const std::string sc = (kSource / "tests/data/multiplex/small-bursty.yaml").string() +
                         " --quiet --set 'workload.policies=[dynamic_mig]' --set workload.trace_policy=dynamic_mig";
  const fs::path out = temp_dir("dynamic_mig");
  ASSERT_EQ(run("run " + sc + " --out " + out.string()).code, 0);
  const nlohmann::json d = nlohmann::json::parse(slurp(out / "summary.json")).at("policies").at("dynamic_mig");
  EXPECT_GE(d.at("reconfigurations").get<int>(), 1);
  EXPECT_DOUBLE_EQ(d.at("decision_period_s").get<double>(), 0.01);
  EXPECT_GT(d.at("reconfig_wait_s").get<double>(), 0.0);
  EXPECT_NE(d.at("initial_mig_layout"), d.at("final_mig_layout"));
  EXPECT_TRUE(fs::exists(out / "shares.csv"));
  fs::remove_all(out);
  const Result zero = run("run " + sc + " --set workload.mig_reconfig_cost_ms=0");
  EXPECT_EQ(zero.code, 2) << zero.output;
  EXPECT_NE(zero.output.find("mig_reconfig_cost_ms"), std::string::npos) << zero.output;
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

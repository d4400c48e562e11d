// File: tests/cli/sweep_cli_test.cpp
// `parallax sweep` and `parallax merge` as a user runs them, on the SimGrid anchor scenarios
// (scenarios/bench): a sweep killed with SIGKILL and resumed gives the rows of an uninterrupted run
// (as a set, with no point twice); shards run separately and merged give the single-process table;
// the same sweep gives the same table, byte for byte, with -j 1 and -j 2; bad sweep files exit 2
// with a located message. results.csv has no wall-clock columns (they are in timing.json), so
// rows are compared whole (docs/sweeps.md, "Determinism").
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/cli_harness.h"

namespace fs = std::filesystem;

namespace {


using namespace parallax::cli_test;

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep)) out.push_back(item);
  return out;
}

// results.csv, one string per row, header first.
std::vector<std::string> stable_rows(const fs::path& csv) { return split(slurp(csv), '\n'); }

size_t count_lines(const fs::path& p) {
  const std::string s = slurp(p);
  return static_cast<size_t>(std::count(s.begin(), s.end(), '\n'));
}

class SweepCli : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("parallax_sweep_cli_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A sweep over the ring anchor: `gpus` x four sizes, with seeds 1 and 2.
  std::string ring_sweep(const std::string& gpus) const {
    const fs::path p = dir_ / "ring-sweep.yaml";
    std::ofstream(p) << "base: " << (kSource / "scenarios/bench/ring.yaml").string() << "\n"
                     << "set: {output.activities_csv: false, output.trace: false}\n"
                     << "axes:\n"
                     << "  - cartesian: {hardware.gpus: " << gpus << "}\n"
                     << "  - zip: {workload.collectives.0.bytes: [1MiB, 4MiB, 16MiB, 64MiB],"
                     << " workload.collectives.0.name: [a, b, c, d]}\n"
                     << "seeds: [1, 2]\n";
    return p.string();
  }
  fs::path dir_;
};

TEST_F(SweepCli, ResumeAfterSigkillGivesTheUninterruptedRowsOnce) {
  const std::string sweep = ring_sweep("[160, 200, 256, 320]");  // 32 points of ~0.05-0.1 s
  const fs::path whole = dir_ / "whole", killed = dir_ / "killed";
  ASSERT_EQ(run("sweep " + sweep + " --out " + whole.string() + " -j 2 --quiet").code, 0);

  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::string out = killed.string();
    ::execl(kBinary.c_str(), kBinary.c_str(), "sweep", sweep.c_str(), "--out", out.c_str(), "-j", "2", "--quiet",
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (count_lines(killed / "manifest.jsonl") < 4 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the sweep finished before it could be killed; make its points larger";
  const size_t done_at_kill = count_lines(killed / "manifest.jsonl");
  EXPECT_LT(done_at_kill, 32u);

  const Result resumed = run("sweep " + sweep + " --out " + killed.string() + " -j 2");
  ASSERT_EQ(resumed.code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("done before"), std::string::npos) << resumed.output;

  const std::vector<std::string> a = stable_rows(whole / "results.csv");
  const std::vector<std::string> b = stable_rows(killed / "results.csv");
  ASSERT_EQ(a.size(), 33u);
  EXPECT_EQ(std::multiset<std::string>(a.begin(), a.end()), std::multiset<std::string>(b.begin(), b.end()));
  EXPECT_EQ(std::set<std::string>(b.begin(), b.end()).size(), b.size()) << "a row appears twice";
  EXPECT_EQ(count_lines(killed / "manifest.jsonl"), 32u);
  EXPECT_EQ(a, b);  // after the closing rewrite, even the order is the same
}

TEST_F(SweepCli, MergedShardsEqualTheSingleProcessTable) {
  const std::string sweep = ring_sweep("[4, 8, 16]");
  ASSERT_EQ(run("sweep " + sweep + " --out " + (dir_ / "one").string() + " -j 1 --quiet").code, 0);
  std::string shards;
  for (int i = 0; i < 3; ++i) {
    fs::path out = dir_ / "shard";
    out += std::to_string(i);
    if (i < 2) {
      std::string args = "sweep " + sweep + " --out " + out.string() + " -j 2 --quiet --shard ";
      args += std::to_string(i);
      args += "/3";
      const Result r = run(args);
      ASSERT_EQ(r.code, 0) << r.output;
    } else {  // the Slurm way: the job array's variables choose the shard
      const std::string cmd = "SLURM_ARRAY_TASK_COUNT=3 SLURM_ARRAY_TASK_ID=2 " + kBinary + " sweep " + sweep +
                              " --out " + out.string() + " --quiet";
      ASSERT_EQ(std::system(cmd.c_str()), 0);
    }
    EXPECT_EQ(count_lines(out / "manifest.jsonl"), 8u);  // 24 points, mod 3
    shards += ' ';
    shards += out.string();
  }
  const Result m = run("merge" + shards + " --out " + (dir_ / "merged").string());
  ASSERT_EQ(m.code, 0) << m.output;
  EXPECT_NE(m.output.find("merged 24 of 24 points"), std::string::npos) << m.output;
  EXPECT_EQ(stable_rows(dir_ / "merged" / "results.csv"), stable_rows(dir_ / "one" / "results.csv"));
}

TEST_F(SweepCli, TheSameSweepGivesTheSameTable) {
  const std::string sweep = ring_sweep("[4, 8]");
  ASSERT_EQ(run("sweep " + sweep + " --out " + (dir_ / "a").string() + " -j 1 --quiet").code, 0);
  ASSERT_EQ(run("sweep " + sweep + " --out " + (dir_ / "b").string() + " -j 2 --quiet").code, 0);
  const std::string a = slurp(dir_ / "a" / "results.csv");
  EXPECT_EQ(a, slurp(dir_ / "b" / "results.csv")) << "results.csv differs between -j 1 and -j 2";
  // No wall-clock column; the byte axis as a number beside the text the sweep file wrote.
  const std::string header = a.substr(0, a.find('\n'));
  EXPECT_EQ(header.find("wall"), std::string::npos) << header;
  EXPECT_NE(header.find(",workload.collectives.0.bytes,workload.collectives.0.bytes_text,workload.collectives.0.name,"),
            std::string::npos)
      << header;
  EXPECT_NE(a.find(",1048576,1MiB,a,"), std::string::npos) << a;
  EXPECT_NE(a.find(",67108864,64MiB,d,"), std::string::npos) << a;
  EXPECT_TRUE(fs::exists(dir_ / "a" / "timing.json"));
  const Result again = run("sweep " + sweep + " --out " + (dir_ / "a").string());
  EXPECT_EQ(again.code, 0);
  EXPECT_NE(again.output.find("16 done before, 0 to run"), std::string::npos) << again.output;
}

TEST_F(SweepCli, HybridPointsLandInTheirOwnFolders) {
  const fs::path p = dir_ / "hybrid-sweep.yaml";
  std::ofstream(p) << "base: " << (kSource / "scenarios/bench/hybrid.yaml").string() << "\n"
                   << "axes:\n  - cartesian: {hardware.topology.uplink.duplex: [full, half]}\n";
  ASSERT_EQ(run("sweep " + p.string() + " --out " + (dir_ / "h").string() + " --quiet").code, 0);
  const std::vector<std::string> rows = stable_rows(dir_ / "h" / "results.csv");
  ASSERT_EQ(rows.size(), 3u);
  for (size_t i = 1; i < rows.size(); ++i) {
    const std::string hash = split(rows[i], ',')[1];
    EXPECT_TRUE(fs::exists(dir_ / "h" / "points" / hash / "summary.json"));
    EXPECT_TRUE(fs::exists(dir_ / "h" / "points" / hash / "trace.json"));  // the base scenario asks for it
  }
}

TEST_F(SweepCli, BadInputExitsTwoWithALocatedMessage) {
  const fs::path p = dir_ / "bad.yaml";
  std::ofstream(p) << "base: " << (kSource / "scenarios/bench/ring.yaml").string() << "\n"
                   << "axes:\n  - cartesian: {hardware.gpus: [4, 0]}\n";
  Result r = run("sweep " + p.string() + " --out " + (dir_ / "o").string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find(p.string() + ":3:17: point 1 (hardware.gpus=0) is not a valid scenario"), std::string::npos)
      << r.output;
  std::ofstream(p) << "base: " << (kSource / "scenarios/bench/ring.yaml").string() << "\n"
                   << "axes:\n  - zip: {a: [1], b: [1, 2]}\n";
  r = run("sweep " + p.string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("zipped lists must have one length"), std::string::npos) << r.output;
  EXPECT_EQ(run("sweep " + p.string() + " --shard 3/3").code, 2);
  EXPECT_EQ(run("merge " + dir_.string() + " --out " + (dir_ / "m").string()).code, 2);
}

}  // namespace

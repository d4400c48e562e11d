// File: sim/sweep/sweep_output_test.cpp
// The output folder without simulations: manifest lines (and a torn last one), the flattened
// results table, resume by hash, the thread pool with a fake point runner, and merge.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "sim/sweep/results_table.h"
#include "sim/sweep/sweep_directory.h"
#include "sim/sweep/sweep_manifest.h"
#include "sim/sweep/sweep_merge.h"
#include "sim/sweep/sweep_runner.h"
#include "sim/sweep/sweep_test_files.h"

namespace parallax {
namespace {

using sweep_test::TempFolder;

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

ExpandedSweep output_plan_of(const TempFolder& tmp, const std::string& axes) {
  return expand_sweep(parse_sweep_file(tmp.write("s.yaml", "base: base.yaml\n" + axes)));
}

SweepIdentity identity_of(const ExpandedSweep& plan, const std::string& shard = "") {
  return SweepIdentity{sweep_id(plan), "s.yaml", "base.yaml", plan.points.size(), plan.axis_keys, shard};
}

// A stand-in for a simulation: its "summary" is a function of the point alone.
ManifestEntry fake_run(const ExpandedSweep& plan, const SweepPoint& p) {
  ManifestEntry e;
  e.point = p.index;
  e.hash = p.hash;
  e.seed = 1;
  for (size_t a = 0; a < plan.axis_keys.size(); ++a) e.axes.emplace_back(plan.axis_keys[a], p.values[a]);
  e.wall_s = 0.001;
  e.summary = flatten_summary(nlohmann::ordered_json::parse(
      R"({"scenario": "x", "makespan_s": )" + std::to_string(p.index * 2) +
      R"(, "activities": {"copy": 3}, "links": [{"bytes": 1}], "a": "clash"})"));
  return e;
}

void run_all(const ExpandedSweep& plan, SweepDirectory& dir, size_t jobs, const SweepShard& shard = {}) {
  std::vector<const SweepPoint*> todo;
  for (const SweepPoint& p : plan.points)
    if (shard.holds(p.index) && !dir.finished(p.hash)) todo.push_back(&p);
  SweepProgress progress(stderr, SweepProgress::Style::silent, todo.size(), 0);
  const SweepRunReport r = run_sweep_points(
      todo, jobs, [&](const SweepPoint& p, const std::filesystem::path&) { return fake_run(plan, p); }, dir, progress);
  EXPECT_TRUE(r.failures.empty());
  dir.finalize();
}

TEST(SweepManifestTest, LinesRoundTripAndATornTailIsDropped) {
  TempFolder tmp;
  ManifestEntry e;
  e.point = 3;
  e.hash = "00ff";
  e.seed = 9;
  e.axes = {{"b", "2"}, {"a", "x y"}};
  e.wall_s = 0.5;
  e.events_per_s = 1e6;
  e.summary = {{"k", 1.25}};
  const std::string line = manifest_line(e);
  EXPECT_EQ(line,
            R"({"point":3,"hash":"00ff","seed":9,"axes":{"b":"2","a":"x y"},"wall_s":0.5,"events_per_s":1000000.0,)"
            R"("summary":{"k":1.25}})" "\n");
  const ManifestEntry back = parse_manifest_line(line);
  EXPECT_EQ(back.axes, e.axes);
  EXPECT_FALSE(back.sim_to_wall.has_value());

  ManifestEntry f = e;
  f.hash = "0100";
  const std::string path = tmp.write("m.jsonl", line + line + manifest_line(f).substr(0, 20));
  const ManifestContents m = read_manifest(path);
  EXPECT_EQ(m.entries.size(), 1u);
  EXPECT_EQ(m.duplicate_lines, 1u);
  EXPECT_EQ(m.dropped_lines, 1u);
}

TEST(SweepResultsTable, FlattensObjectsDropsArraysAndRenamesClashes) {
  TempFolder tmp;
  const ExpandedSweep plan = output_plan_of(tmp, "axes:\n  - cartesian: {a: [1, 2]}\n");
  const ManifestEntry e = fake_run(plan, plan.points[1]);
  const ResultsTable t(plan.axis_keys, e);
  EXPECT_EQ(t.header_line(), "point,hash,a,scenario,makespan_s,activities.copy,summary.a\n");
  EXPECT_EQ(t.row_line(e), "1," + e.hash + ",2,x,2,3,clash\n");
}

TEST(SweepDirectoryTest, ParallelRunRecordsEveryPointOnceInPointOrder) {
  TempFolder tmp;
  const ExpandedSweep plan = output_plan_of(tmp, "axes:\n  - cartesian: {a: [1, 2, 3, 4, 5, 6, 7, 8], b: [x, y, z]}\n");
  SweepDirectory dir(tmp.path() / "out", plan, identity_of(plan));
  run_all(plan, dir, 4);
  EXPECT_EQ(dir.finished_count(), 24u);
  const std::string csv = slurp(tmp.path() / "out" / "results.csv");
  std::istringstream lines(csv);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "point,hash,a,b,scenario,makespan_s,activities.copy,summary.a");
  for (size_t i = 0; i < 24; ++i) {
    ASSERT_TRUE(std::getline(lines, line));
    EXPECT_EQ(line.substr(0, line.find(',')), std::to_string(i));
  }
  EXPECT_FALSE(std::getline(lines, line));
}

TEST(SweepDirectoryTest, ASecondWriterIsRefused) {
  TempFolder tmp;
  const ExpandedSweep plan = output_plan_of(tmp, "axes: []\n");
  SweepDirectory first(tmp.path() / "out", plan, identity_of(plan));
  EXPECT_THROW(SweepDirectory(tmp.path() / "out", plan, identity_of(plan)), InputError);
}

TEST(SweepDirectoryTest, ResumeSkipsFinishedHashesAndRepairsATornLine) {
  TempFolder tmp;
  const ExpandedSweep plan = output_plan_of(tmp, "axes:\n  - cartesian: {a: [1, 2, 3, 4]}\n");
  const std::filesystem::path out = tmp.path() / "out";
  {
    SweepDirectory dir(out, plan, identity_of(plan));
    dir.record(fake_run(plan, plan.points[2]));
  }
  {  // a run killed mid-append leaves half a line
    std::ofstream(out / "manifest.jsonl", std::ios::app) << manifest_line(fake_run(plan, plan.points[0])).substr(0, 30);
  }
  SweepDirectory dir(out, plan, identity_of(plan));
  EXPECT_EQ(dir.repaired_lines(), 1u);
  EXPECT_TRUE(dir.finished(plan.points[2].hash));
  EXPECT_FALSE(dir.finished(plan.points[0].hash));
  run_all(plan, dir, 2);
  const ManifestContents m = read_manifest(out / "manifest.jsonl");
  EXPECT_EQ(m.entries.size(), 4u);
  EXPECT_EQ(m.dropped_lines + m.duplicate_lines, 0u);
}

TEST(SweepDirectoryTest, AnEditedSweepSetsOtherPointsAsideAndTakesThemBack) {
  TempFolder tmp;
  const ExpandedSweep one = output_plan_of(tmp, "axes:\n  - cartesian: {a: [1, 2, 3]}\n");
  const ExpandedSweep two = output_plan_of(tmp, "axes:\n  - cartesian: {a: [3, 4]}\n");  // a=3 is point 2, then 0
  const std::filesystem::path out = tmp.path() / "out";
  {
    SweepDirectory dir(out, one, identity_of(one));
    run_all(one, dir, 2);
  }
  {
    SweepDirectory dir(out, two, identity_of(two));
    EXPECT_EQ(dir.foreign_entries(), 2u);
    EXPECT_TRUE(dir.finished(two.points[0].hash));
    run_all(two, dir, 1);
    const ManifestContents m = read_manifest(out / "manifest.jsonl");
    ASSERT_EQ(m.entries.size(), 2u);
    EXPECT_EQ(m.entries[0].point, 0u);  // re-indexed for this plan
    EXPECT_EQ(read_manifest(out / "manifest.other.jsonl").entries.size(), 2u);
  }
  SweepDirectory dir(out, one, identity_of(one));
  EXPECT_EQ(dir.finished_count(), 3u);
  EXPECT_EQ(dir.foreign_entries(), 1u);  // a=4
  EXPECT_EQ(read_manifest(out / "manifest.jsonl").entries.size(), 3u);
}

TEST(SweepMergeTest, MergedShardsEqualTheSingleProcessTable) {
  TempFolder tmp;
  const ExpandedSweep plan = output_plan_of(tmp, "axes:\n  - cartesian: {a: [1, 2, 3, 4, 5]}\n  - zip: {b: [x, y], c: [1, 2]}\n");
  {
    SweepDirectory whole(tmp.path() / "whole", plan, identity_of(plan));
    run_all(plan, whole, 3);
  }
  std::vector<std::filesystem::path> shards;
  for (size_t i = 0; i < 3; ++i) {
    const SweepShard s{i, 3};
    shards.push_back(tmp.path() / ("shard" + std::to_string(i)));
    SweepDirectory dir(shards.back(), plan, identity_of(plan, to_string(s)));
    run_all(plan, dir, 2, s);
  }
  shards.push_back(shards.front());  // a folder given twice: its points are duplicates
  const MergeReport r = merge_sweep_outputs(shards, tmp.path() / "merged");
  EXPECT_EQ(r.merged, 10u);
  EXPECT_EQ(r.duplicates, 4u);
  EXPECT_TRUE(r.missing.empty());
  EXPECT_EQ(slurp(tmp.path() / "merged" / "results.csv"), slurp(tmp.path() / "whole" / "results.csv"));

  const MergeReport partial = merge_sweep_outputs({shards[0], shards[2]}, tmp.path() / "partial");
  EXPECT_EQ(partial.missing, (std::vector<size_t>{1, 4, 7}));
}

TEST(SweepMergeTest, FoldersOfDifferentSweepsAreRefused) {
  TempFolder tmp;
  const ExpandedSweep one = output_plan_of(tmp, "axes:\n  - cartesian: {a: [1, 2]}\n");
  const ExpandedSweep two = output_plan_of(tmp, "axes:\n  - cartesian: {a: [1, 3]}\n");
  { SweepDirectory d(tmp.path() / "one", one, identity_of(one)); }
  { SweepDirectory d(tmp.path() / "two", two, identity_of(two)); }
  EXPECT_THROW(merge_sweep_outputs({tmp.path() / "one", tmp.path() / "two"}, tmp.path() / "m"), InputError);
  EXPECT_THROW(merge_sweep_outputs({tmp.path() / "one"}, tmp.path() / "one"), InputError);
}

}  // namespace
}  // namespace parallax

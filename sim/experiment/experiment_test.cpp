// File: sim/experiment/experiment_test.cpp
// The registry (one row per workload kind, the loader's kinds in its order), every kind's page
// from its own row (cluster_packing once fell through to the transfers page), and the one writer
// of the output folder: what it writes is the Result in memory, stale outputs go, and two runs of
// one scenario give the same bytes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "sim/experiment/experiment.h"
#include "sim/experiment/output_folder.h"
#include "sim/report/json_output.h"
#include "sim/scenario/scenario_loader.h"

namespace parallax {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = [] {
  const char* s = std::getenv("PARALLAX_SOURCE_DIR");
  return fs::path(s != nullptr ? s : ".");
}();

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("parallax_experiment_test_" + name);
  fs::remove_all(d);
  return d;
}

TEST(ExperimentRegistry, OneRowPerLoaderKindInItsOrder) {
  const std::span<const std::string_view> kinds = workload_kind_names();
  ASSERT_EQ(experiments().size(), kinds.size());
  for (size_t i = 0; i < kinds.size(); ++i) {
    EXPECT_EQ(experiments()[i].kind, kinds[i]);
    EXPECT_NE(experiments()[i].reader, nullptr);
    EXPECT_EQ(experiments()[i].reader, workload_reader(kinds[i])) << kinds[i];  // the loader's own reader
    EXPECT_EQ(&experiment_for(kinds[i]), &experiments()[i]);
  }
  EXPECT_THROW(experiment_for("no_such_kind"), std::logic_error);
}

struct KindCase {
  std::string scenario;  // relative to the source tree; empty: the embedded quickstart
  std::string kind;
};

Scenario load(const KindCase& c) {
  return c.scenario.empty() ? load_scenario_text(embedded_quickstart(), std::string(kQuickstartSource))
                            : load_scenario_file((kSource / c.scenario).string());
}

class EveryKind : public ::testing::TestWithParam<KindCase> {};

TEST_P(EveryKind, PageIsTheKindsOwnAndTheFolderHoldsTheResult) {
  const Scenario sc = load(GetParam());
  ASSERT_EQ(sc.workload_kind, GetParam().kind);
  const fs::path dir = fresh_dir(GetParam().kind);
  begin_run_folder(dir);
  ExperimentContext ctx;
  ctx.out_dir = dir.string();
  const Result r = run_experiment(sc, ctx);
  EXPECT_EQ(r.kind, GetParam().kind);
  EXPECT_FALSE(r.console.empty());
  RunOptions options;
  options.scenario_path = GetParam().scenario.empty() ? "" : (kSource / GetParam().scenario).string();
  const HtmlReport page = run_report_page(sc, options, r);
  EXPECT_EQ(page.kind, GetParam().kind);
  write_run_folder(dir, r, page);
  EXPECT_EQ(slurp(dir / "summary.json"), format_json(r.summary));
  for (const OutputFile& f : r.files) {
    ASSERT_TRUE(fs::exists(dir / f.name)) << f.name;
    if (!f.stream) {
      EXPECT_EQ(slurp(dir / f.name), f.text) << f.name;
    }
  }
  EXPECT_TRUE(fs::exists(dir / "report.html"));
  EXPECT_TRUE(fs::exists(dir / "timing.json"));
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Kinds, EveryKind,
                         ::testing::Values(KindCase{"", "transfers"},
                                           KindCase{"tests/data/colocate/small-bursty.yaml", "colocate"},
                                           KindCase{"tests/data/multiplex/small-bursty.yaml", "multiplex"},
                                           KindCase{"scenarios/multiplex/alibaba-openb-packing.yaml", "cluster_packing"},
                                           KindCase{"scenarios/serverless/small.yaml", "serverless"}),
                         [](const auto& info) { return info.param.kind; });

TEST(ExperimentPages, ClusterPackingHasItsSchemesTable) {
  const Scenario sc = load({"scenarios/multiplex/alibaba-openb-packing.yaml", "cluster_packing"});
  const Result r = run_experiment(sc, {});
  const HtmlReport page = experiment_for("cluster_packing").page(sc, r);
  ASSERT_EQ(page.tables.size(), 1u);
  EXPECT_EQ(page.tables[0].rows.size(), sc.cluster_packing.schemes.size());
  EXPECT_EQ(page.tables[0].header.at(1), "gpus_needed");
  EXPECT_EQ(page.tables[0].rows[0][0], sc.cluster_packing.schemes.at(0));
}

TEST(OutputFolder, StaleOutputsGoAndSummaryIsRewrittenFromMemory) {
  const fs::path dir = fresh_dir("stale");
  fs::create_directories(dir);
  std::ofstream(dir / "trace.json") << "old";
  std::ofstream(dir / "summary.json") << "old";
  begin_run_folder(dir);
  EXPECT_FALSE(fs::exists(dir / "summary.json"));  // before the scenario even loads
  Result r;
  r.kind = "transfers";
  r.summary = {{"makespan_s", 1.5}};
  r.timing = {{"wall_s", 0.1}};
  r.stale = {"trace.json"};
  r.files.push_back({"a.csv", "x\n1\n", {}});
  r.files.push_back({"b.txt", "", [](std::ostream& o) { o << "streamed"; }});
  write_run_folder(dir, r, HtmlReport{});
  EXPECT_FALSE(fs::exists(dir / "trace.json"));
  EXPECT_EQ(slurp(dir / "a.csv"), "x\n1\n");
  EXPECT_EQ(slurp(dir / "b.txt"), "streamed");
  EXPECT_EQ(slurp(dir / "summary.json"), format_json(r.summary));
  EXPECT_EQ(r.table("a.csv").rows.size(), 1u);
  EXPECT_TRUE(r.table("missing.csv").rows.empty());
  fs::remove_all(dir);
}

TEST(Experiment, SameScenarioSameSummaryInMemory) {
  const Scenario sc = load({"tests/data/multiplex/small-bursty.yaml", "multiplex"});
  const Result a = run_experiment(sc, {});
  const Result b = run_experiment(sc, {});
  EXPECT_EQ(format_json(a.summary), format_json(b.summary));
  EXPECT_TRUE(a.files.empty());  // no folder: no tables, no trace
}

}  // namespace
}  // namespace parallax

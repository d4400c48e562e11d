// File: tests/cli/compare_cli_test.cpp
// `parallax compare DIR DIR...` on real run folders: two quickstart runs that differ in one
// message size differ in their collective's bytes and times and nowhere they should not (no
// wall-clock field); a folder compared with itself differs nowhere; --out writes compare.csv and a
// report.html whose plots are well-formed; a folder without summary.json, or a single folder, is
// bad input (exit 2, naming the folder).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "sim/report/xml_check.h"
#include "tests/support/cli_harness.h"

namespace parallax {
namespace {

namespace fs = std::filesystem;
using cli_test::fresh_temp_dir;
using cli_test::kSource;
using cli_test::Result;
using cli_test::run;
using cli_test::slurp;

fs::path quickstart(const fs::path& root, const std::string& name, const std::string& set) {
  const fs::path out = root / name;
  const Result r = run("run " + (kSource / "scenarios/quickstart.yaml").string() + " --quiet --out " + out.string() + set);
  EXPECT_EQ(r.code, 0) << r.output;
  return out;
}

TEST(CompareCli, TwoRunsMetricByMetric) {
  const fs::path root = fresh_temp_dir("parallax_compare_cli", "two");
  const fs::path a = quickstart(root, "a", "");
  const fs::path b = quickstart(root, "b", " --set workload.collectives.0.bytes=256MiB");
  const Result r = run("compare " + a.string() + " " + b.string() + " --out " + (root / "cmp").string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("collectives[grad-allreduce].bytes"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(" metrics differ (identical ones left out; --all shows them)"), std::string::npos) << r.output;
  // Wall-clock figures (timing.json) are shown apart, never among the metrics compared.
  const size_t timing = r.output.find("timing.json (wall clock, not counted as differences)");
  ASSERT_NE(timing, std::string::npos) << r.output;
  EXPECT_EQ(r.output.substr(0, timing).find("wall_s"), std::string::npos) << r.output;
  const std::string csv = slurp(root / "cmp" / "compare.csv");
  EXPECT_EQ(csv.rfind("metric,source,value_0,value_1,abs_1,rel_1\n", 0), 0u) << csv.substr(0, 200);
  EXPECT_NE(csv.find("activities.csv"), std::string::npos);  // the CSV tables are compared too
  const std::string html = slurp(root / "cmp" / "report.html");
  EXPECT_NE(html.find("Metrics that differ"), std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos);
  size_t plots = 0;
  for (size_t at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1)) {
    const size_t end = html.find("</svg>", at) + 6;
    EXPECT_EQ(xml_shape_error(std::string_view(html).substr(at, end - at)), "");
    ++plots;
  }
  EXPECT_GE(plots, 1u);
  // A run against itself: nothing differs, and --all prints every metric.
  const Result same = run("compare " + a.string() + " " + a.string() + " --all");
  ASSERT_EQ(same.code, 0) << same.output;
  EXPECT_NE(same.output.find("\n0 of "), std::string::npos) << same.output;
  EXPECT_NE(same.output.find("makespan_s"), std::string::npos) << same.output;
  fs::remove_all(root);
}

TEST(CompareCli, NotARunFolderExitsTwo) {
  const fs::path root = fresh_temp_dir("parallax_compare_cli", "bad");
  const fs::path a = quickstart(root, "a", "");
  fs::create_directories(root / "empty");
  const Result r = run("compare " + a.string() + " " + (root / "empty").string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find((root / "empty").string() + ": not a run folder: no summary.json"), std::string::npos) << r.output;
  const Result one = run("compare " + a.string());
  EXPECT_EQ(one.code, 2) << one.output;
  EXPECT_NE(one.output.find("at least two run folders"), std::string::npos) << one.output;
  const Result missing = run("compare " + a.string() + " " + (root / "nope").string());
  EXPECT_EQ(missing.code, 2) << missing.output;
  fs::remove_all(root);
}

}  // namespace
}  // namespace parallax

// File: sim/scenario/schema_recorder_test.cpp
// The recorded schema keeps workload kinds apart: serverless's `nodes` (a count) and
// cluster_packing's `nodes` (a file path) each appear in their own kind's table, loaded from the
// shipped scenarios the reference page is generated from.
#include "sim/scenario/schema_recorder.h"

#include <gtest/gtest.h>

#include <string>

#include "sim/scenario/scenario_loader.h"

namespace parallax {
namespace {

// The table of section `heading` in `markdown` (up to the next section).
std::string section(const std::string& markdown, const std::string& heading) {
  const size_t at = markdown.find("\n### " + heading + "\n");
  if (at == std::string::npos) return "";
  const size_t end = markdown.find("\n### ", at + 1);
  return markdown.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

TEST(SchemaRecorder, KeysBelowWorkloadAreRecordedPerKind) {
  SchemaRecorder recorder;
  {
    const ScopedSchemaRecording recording(recorder);
    for (const char* f : {"scenarios/serverless/small-2nodes.yaml", "scenarios/multiplex/alibaba-openb-packing.yaml"}) {
      recorder.add_scenario_file(f);
      load_scenario_file(f, {});
    }
  }
  const std::string md = recorder.markdown();
  const std::string serverless = section(md, "`workload` (kind: serverless)");
  const std::string packing = section(md, "`workload` (kind: cluster_packing)");
  ASSERT_FALSE(serverless.empty()) << md;
  ASSERT_FALSE(packing.empty()) << md;
  EXPECT_NE(serverless.find("| `nodes` | integer | 1 to 4096 |"), std::string::npos) << serverless;
  EXPECT_NE(packing.find("| `nodes` |"), std::string::npos) << packing;
  EXPECT_EQ(packing.find("1 to 4096"), std::string::npos) << packing;
  EXPECT_NE(packing.find("| `kind` | string |"), std::string::npos) << packing;  // read before the mapping
  // Serverless's optional keys are not marked required by another kind that requires them.
  EXPECT_NE(serverless.find("| `nodes` | integer | 1 to 4096 |  |\n"), std::string::npos) << serverless;
  // The top-level key `workload` still leads to the per-kind tables.
  EXPECT_NE(section(md, "`(top level)`").find("| `workload` | mapping (below) |  | yes |"), std::string::npos) << md;
}

TEST(SchemaRecorder, SchemaPathWritesIndicesAsN) {
  EXPECT_EQ(schema_path("workload.collectives.0.bytes"), "workload.collectives.N.bytes");
  EXPECT_EQ(schema_path(""), "");
}

}  // namespace
}  // namespace parallax

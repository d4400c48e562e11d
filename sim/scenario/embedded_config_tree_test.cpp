// File: sim/scenario/embedded_config_tree_test.cpp
#include "sim/scenario/embedded_config_tree.h"

#include <gtest/gtest.h>

#include "sim/scenario/embedded_file.h"

namespace parallax {
namespace {

// Where two trees first differ ("" when they are equal), for the failure message.
std::string first_difference(const ConfigNode& a, const ConfigNode& b, const std::string& at) {
  const auto place = [](const SourceLocation& w) { return w.file + ":" + std::to_string(w.line) + ":" + std::to_string(w.column); };
  if (a.kind != b.kind) return at + ": kind";
  if (place(a.where) != place(b.where)) return at + ": location " + place(a.where) + " vs " + place(b.where);
  if (a.scalar != b.scalar) return at + ": scalar '" + a.scalar + "' vs '" + b.scalar + "'";
  if (a.items.size() != b.items.size()) return at + ": item count";
  if (a.entries.size() != b.entries.size()) return at + ": entry count";
  for (size_t i = 0; i < a.items.size(); ++i) {
    const std::string d = first_difference(a.items[i], b.items[i], at + "[" + std::to_string(i) + "]");
    if (!d.empty()) return d;
  }
  for (size_t i = 0; i < a.entries.size(); ++i) {
    const ConfigEntry& x = a.entries[i];
    const ConfigEntry& y = b.entries[i];
    if (x.key != y.key) return at + ": key '" + x.key + "' vs '" + y.key + "'";
    if (place(x.key_where) != place(y.key_where)) return at + "." + x.key + ": key location";
    const std::string d = first_difference(x.value, y.value, at + "." + x.key);
    if (!d.empty()) return d;
  }
  return "";
}

// The build-time trees are what parsing each embedded file's text gives now, locations included.
TEST(EmbeddedConfigTree, EveryEmbeddedFileEqualsItsParsedText) {
  size_t checked = 0;
  for (const EmbeddedFile& f : embedded_scenario_files()) {
    const std::optional<ConfigNode> built = embedded_config_tree(f.path);
    ASSERT_TRUE(built.has_value()) << f.path;
    const ConfigNode parsed = parse_config_tree(f.text, std::string(f.path));
    EXPECT_EQ(first_difference(*built, parsed, std::string(f.path)), "");
    ++checked;
  }
  EXPECT_EQ(checked, embedded_config_trees().size());
  EXPECT_GE(checked, 8u);
}

TEST(EmbeddedConfigTree, UnknownPathIsNullopt) {
  EXPECT_FALSE(embedded_config_tree("scenarios/hardware/nope.yaml").has_value());
  EXPECT_FALSE(embedded_config_tree("").has_value());
}

// The comparison above can fail: a moved location is a difference.
TEST(EmbeddedConfigTree, ComparisonSeesALocation) {
  const ConfigNode a = parse_config_tree("a: 1\n", "f");
  const ConfigNode b = parse_config_tree("\na: 1\n", "f");
  EXPECT_NE(first_difference(a, b, "f"), "");
}

}  // namespace
}  // namespace parallax

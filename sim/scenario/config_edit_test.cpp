// File: sim/scenario/config_edit_test.cpp
#include "sim/scenario/config_edit.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace parallax {
namespace {

const ConfigNode& at(const ConfigNode& map, std::string_view key) {
  const ConfigEntry* e = find_entry(map, key);
  EXPECT_NE(e, nullptr) << key;
  return e->value;
}

std::string override_error(ConfigNode& root, std::string_view assignment) {
  try {
    apply_override(root, assignment);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ConfigEdit, OverrideScalarNestedAndIndex) {
  ConfigNode root = parse_config_tree("a: 1\nb: {c: {d: x}}\nlist: [{v: 1}, {v: 2}]\n", "t.yaml");
  apply_override(root, "a=2");
  apply_override(root, "b.c.d=y");
  apply_override(root, "b.c.e=[1, 2]");
  apply_override(root, "list.1.v=64MiB");
  apply_override(root, "list.2={v: 3}");  // index == length appends
  apply_override(root, "new.deep.key=z");
  EXPECT_EQ(at(root, "a").scalar, "2");
  EXPECT_EQ(at(root, "a").where.file, "<command line>");
  EXPECT_EQ(at(at(at(root, "b"), "c"), "d").scalar, "y");
  EXPECT_EQ(at(at(at(root, "b"), "c"), "e").items.size(), 2u);
  EXPECT_EQ(at(at(root, "list").items[1], "v").scalar, "64MiB");
  EXPECT_EQ(at(at(root, "list").items[2], "v").scalar, "3");
  EXPECT_EQ(at(at(at(root, "new"), "deep"), "key").scalar, "z");
  EXPECT_EQ(at(at(root, "list").items[0], "v").where.line, 3);  // untouched nodes keep their place
}

TEST(ConfigEdit, OverrideErrors) {
  ConfigNode root = parse_config_tree("a: 1\nlist: [1]\n", "t.yaml");
  EXPECT_EQ(override_error(root, "a"), "<command line>: --set 'a': expected dotted.path=value");
  EXPECT_EQ(override_error(root, "a..b=1"), "<command line>: --set 'a..b=1': empty key in the dotted path");
  EXPECT_EQ(override_error(root, "list.5=1"), "<command line>: --set 'list.5=1': index 5 is out of range for 'list' (1 items)");
  EXPECT_EQ(override_error(root, "list.x=1"), "<command line>: --set 'list.x=1': 'list' is a list; 'x' is not an index");
  EXPECT_EQ(override_error(root, "a.b=1"), "<command line>: --set 'a.b=1': 'a' is a scalar and has no key 'b'");
  EXPECT_EQ(override_error(root, "a={x: 1"),
            "<command line>: --set 'a={x: 1': invalid value: YAML syntax error: end of map flow not found");
}

TEST(ConfigEdit, DeepMergeMapsMergeOthersReplace) {
  ConfigNode base = parse_config_tree("gpu: {sms: 132, model: H}\nlist: [1, 2, 3]\nname: a\n", "base.yaml");
  const ConfigNode overlay = parse_config_tree("gpu: {sms: 100}\nlist: [9]\nextra: 1\n", "over.yaml");
  deep_merge(base, overlay);
  EXPECT_EQ(at(at(base, "gpu"), "sms").scalar, "100");
  EXPECT_EQ(at(at(base, "gpu"), "sms").where.file, "over.yaml");
  EXPECT_EQ(at(at(base, "gpu"), "model").scalar, "H");
  EXPECT_EQ(at(at(base, "gpu"), "model").where.file, "base.yaml");
  EXPECT_EQ(at(base, "list").items.size(), 1u);
  EXPECT_EQ(at(base, "name").scalar, "a");
  EXPECT_EQ(at(base, "extra").scalar, "1");
}

TEST(ConfigTree, ParseErrorsAreLocated) {
  const auto error = [](std::string_view text) {
    try {
      parse_config_tree(text, "f.yaml");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("a: [1, 2\n"), "f.yaml:2:1: YAML syntax error: end of sequence flow not found");
  EXPECT_EQ(error("a: 1\nb: 2\na: 3\n"), "f.yaml:3:1: duplicate key 'a' (first at line 1)");
  EXPECT_EQ(error("a: 1\n---\nb: 2\n"), "f.yaml:3:1: more than one YAML document ('---'); a file holds exactly one");
  // Regression (tests/fuzz/regressions/scenario_yaml/loadall-no-progress.yaml): yaml-cpp's
  // LoadAll never returned on this input; it is now a located syntax error.
  EXPECT_EQ(error(", nn"), "f.yaml:1:1: YAML syntax error: the parser cannot get past this point");
}

TEST(ConfigTree, AliasBombIsRefused) {
  // Nine levels of ten aliases each would expand to 10^9 nodes.
  std::string bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i <= 9; ++i) {
    bomb += fmt::format("a{}: &a{} [", i, i);
    for (int k = 0; k < 10; ++k) bomb += fmt::format("{}*a{}", k == 0 ? "" : ", ", i - 1);
    bomb += "]\n";
  }
  try {
    parse_config_tree(bomb, "bomb.yaml");
    FAIL() << "expected an error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "bomb.yaml: document expands to more than 1000000 nodes (aliases included); refusing it");
  }
  // A few aliases are fine and expand to copies.
  const ConfigNode ok = parse_config_tree("base: &b {GBps: 1}\nuse: *b\n", "ok.yaml");
  EXPECT_EQ(find_entry(find_entry(ok, "use")->value, "GBps")->value.scalar, "1");
}

TEST(ConfigTree, RecursiveAliasIsRefusedNotOverflowed) {
  // The anchored list contains an alias to itself: a cycle, found by the fuzzer as a stack overflow.
  try {
    parse_config_tree("x: 1\nloop: &l [1, *l]\n", "cycle.yaml");
    FAIL() << "expected an error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("cycle.yaml:2:", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("recursive alias"), std::string::npos) << e.what();
  }
  // The same through a mapping value.
  EXPECT_THROW(parse_config_tree("m: &m {a: *m}\n", "cycle.yaml"), InputError);
}

TEST(ConfigTree, NestingDepthIsBounded) {
  auto nested = [](size_t depth) { return std::string(depth, '[') + "1" + std::string(depth, ']') + "\n"; };
  // kMaxConfigDepth levels are accepted, one more is a located error.
  EXPECT_NO_THROW(parse_config_tree(nested(kMaxConfigDepth), "deep.yaml"));
  try {
    parse_config_tree(nested(kMaxConfigDepth + 1), "deep.yaml");
    FAIL() << "expected an error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              fmt::format("deep.yaml:1:{}: document nests lists and mappings more than {} levels deep; refusing it",
                          kMaxConfigDepth + 1, kMaxConfigDepth));
  }
}

}  // namespace
}  // namespace parallax

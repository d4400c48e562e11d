// File: sim/scenario/embedded_config_tree.h
// The embedded YAML files (embedded_file.h) as parsed trees, parsed at build time:
// tools/compile_config_trees.cpp runs parse_config_tree over each file and writes its tree as a
// table (generated: embedded_config_trees.cpp), so that a run naming a hardware preset does not
// scan the preset's YAML again (yaml-cpp costs about 1,000 instructions a byte; docs/performance.md,
// "Process start-up"). A rebuilt tree is the one parse_config_tree gives for the file's text,
// locations included (embedded_config_tree_test checks every file).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "sim/scenario/config_tree.h"

namespace parallax {

// One node of a tree in pre-order; a mapping's entries carry their key. Texts are offsets into
// the tree's `text` rather than pointers, so that the tables need no relocation at start-up.
struct EmbeddedConfigRecord {
  ConfigNode::Kind kind;
  int line;
  int column;
  uint32_t children;  // items of a sequence, entries of a mapping
  uint32_t scalar_at, scalar_size;  // Kind::scalar
  uint32_t key_at, key_size;        // an entry of a mapping: its key and the key's place
  int key_line;
  int key_column;
};

struct EmbeddedConfigTree {
  std::string_view path;  // as in embedded_scenario_files()
  std::span<const EmbeddedConfigRecord> records;
  std::string_view text;  // every scalar and key of the tree
};

// Every embedded file's tree (generated).
std::span<const EmbeddedConfigTree> embedded_config_trees();

// The tree of an embedded file by path (locations name `path`), or nullopt.
std::optional<ConfigNode> embedded_config_tree(std::string_view path);

}  // namespace parallax

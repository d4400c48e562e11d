// File: sim/scenario/config_tree.h
// A parsed YAML document as a plain tree in which every node remembers where it came from (file,
// line, column), so errors can point at it after trees from several files and the command line
// have been merged. Aliases are expanded into copies, under a node budget that stops YAML bombs.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "sim/io/input_error.h"

namespace parallax {

struct ConfigEntry;

struct ConfigNode {
  enum class Kind { null, scalar, sequence, map };
  Kind kind = Kind::null;
  std::string scalar;                // Kind::scalar: the text as written (unquoted)
  std::vector<ConfigNode> items;     // Kind::sequence
  std::vector<ConfigEntry> entries;  // Kind::map, in file order; keys are unique
  SourceLocation where;              // of the value (a mapping: its first key or '{')
};

struct ConfigEntry {
  std::string key;
  SourceLocation key_where;
  ConfigNode value;
};

// Most nodes one document may expand to (aliases counted once per use).
inline constexpr size_t kMaxConfigNodes = 1'000'000;
// Deepest nesting of lists and mappings accepted; also what stops a recursive alias.
inline constexpr size_t kMaxConfigDepth = 100;

// Parses one YAML document. Syntax errors, duplicate keys, non-scalar keys, more than one
// document, more than kMaxConfigNodes nodes, nesting deeper than kMaxConfigDepth and recursive
// aliases throw InputError located in `file`.
ConfigNode parse_config_tree(std::string_view text, const std::string& file);

// "null", "a scalar", "a list", "a mapping": for messages.
std::string_view kind_name(ConfigNode::Kind kind);

// The entry for `key` in a mapping, or nullptr (also when `map` is not a mapping).
const ConfigEntry* find_entry(const ConfigNode& map, std::string_view key);
ConfigEntry* find_entry(ConfigNode& map, std::string_view key);

// Gives `node` and everything below it the location `where` (values from the command line).
void relocate(ConfigNode& node, const SourceLocation& where);

}  // namespace parallax

// File: sim/scenario/config_edit.h
// Edits of a ConfigNode tree before validation: a command-line override ("--set a.b.0.c=value")
// and the deep merge of a scenario's hardware mapping into its preset. Nothing here knows the
// schema; the validators run afterwards on the edited tree.
#pragma once

#include <string_view>

#include "sim/scenario/config_tree.h"

namespace parallax {

// Where command-line overrides are reported: "<command line>".
inline constexpr std::string_view kCommandLine = "<command line>";

// Applies "dotted.path=value" to `root` (a mapping). The value is parsed as YAML ("16", "64MiB",
// "[0, 1]", "{GBps: 50}"); an empty value is the empty string. Path segments name mapping keys
// (missing ones, and null nodes on the way, become mappings) or list indices (0-based; an index
// equal to the length appends). Errors are InputErrors at "<command line>" naming the key.
void apply_override(ConfigNode& root, std::string_view assignment);

// Merges `overlay` into `base`: when both are mappings, keys merge recursively (base order kept,
// new keys appended); otherwise the overlay replaces the base node, scalars and lists included.
void deep_merge(ConfigNode& base, const ConfigNode& overlay);

}  // namespace parallax

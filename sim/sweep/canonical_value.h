// File: sim/sweep/canonical_value.h
// The canonical text of a configuration value: one line of flow-style YAML that parses back to the
// same tree (scalars plain when that is safe, double-quoted otherwise; lists as [a, b]; mappings as
// {k: v} in their order). Sweeps use it twice: as the value of a "--set key=value" override, and
// as the bytes that a point's configuration hash covers (docs/sweeps.md, "Hashing").
#pragma once

#include <string>
#include <string_view>

#include "sim/scenario/config_tree.h"

namespace parallax {

// 16 -> "16", 64MiB -> "64MiB", "a: b" -> "\"a: b\"", [1, "x y"] -> "[1, x y]",
// {GBps: 300} -> "{GBps: 300}", null -> "null", the empty string -> "\"\"".
std::string canonical_value(const ConfigNode& node);

// A scalar written so that YAML reads back exactly `text` as one scalar.
std::string canonical_scalar(std::string_view text);

}  // namespace parallax

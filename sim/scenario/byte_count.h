// File: sim/scenario/byte_count.h
// Parses a byte count as users write it in YAML and CSV: an integer ("1073741824"), a decimal or
// exponent form that is integral ("1e9", "1.5e3"), or a number with a unit: B, KB, MB, GB, TB
// (steps of 10^3) or KiB, MiB, GiB, TiB (steps of 2^10), e.g. "1GiB", "1.5 MiB". Exact: computed
// in integers, never through a double.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace parallax {

struct ByteCountParse {
  std::optional<int64_t> bytes;  // set on success
  std::string error;             // on failure: why, e.g. "unknown unit 'Gb' (did you mean 'GB'?)"
};

// Negative counts are rejected ("must not be negative"), as are fractions of a byte and values
// past int64.
ByteCountParse parse_byte_count(std::string_view text);

}  // namespace parallax

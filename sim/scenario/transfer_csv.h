// File: sim/scenario/transfer_csv.h
// Reads point-to-point transfers from a CSV file: a header row naming the columns src, dst, bytes,
// start_s (all required) and name (optional), in any order; then one transfer per row. Endpoints
// are node names or a bare GPU index ("3" = gpu3); bytes take units ("4GiB"). Blank lines and
// lines starting with '#' are skipped. Errors: InputError "file:line: column 'bytes': ...".
#pragma once

#include <string>
#include <vector>

#include "sim/scenario/input_error.h"
#include "sim/scenario/node_directory.h"
#include "sim/scenario/scenario.h"

namespace parallax {

// Longest start time accepted anywhere (seconds); Time's range is about 106 days.
inline constexpr double kMaxStartSeconds = 1e6;

std::vector<TransferSpec> read_transfers_csv(const std::string& path, const NodeDirectory& nodes);

// The same, from text already in memory; `path` is only used in error messages.
std::vector<TransferSpec> parse_transfers_csv(std::string_view text, const std::string& path, const NodeDirectory& nodes);

}  // namespace parallax

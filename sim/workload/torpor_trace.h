// File: sim/workload/torpor_trace.h
// Readers for Torpor's own workload files (FCSLab/torpor:tools/): the per-minute invocation counts
// of 203 functions over 31 minutes (samples_derived.csv, `function_index,min_0..min_30`) and the
// list of per-function mean rates in invoc_pattern.txt (comma-separated req/min on one line).
#pragma once

#include <cstddef>
#include <istream>
#include <limits>
#include <string>
#include <vector>

#include "sim/workload/minute_counts.h"

namespace parallax {

// Reads at most `max_functions` rows (in file order). function_index must run 0, 1, 2, ...; each
// count is a non-negative integer; function i is named "f<i>". The stream overload reads the
// file's text from `in`, naming `source` in errors (the path overload opens the file and calls it).
MinuteCounts read_torpor_samples(const std::string& path,
                                 size_t max_functions = std::numeric_limits<size_t>::max());
MinuteCounts read_torpor_samples(std::istream& in, const std::string& source,
                                 size_t max_functions = std::numeric_limits<size_t>::max());

// Reads invoc_pattern.txt: positive finite rates in requests per minute, separated by commas and
// optional whitespace (any number of lines). Errors name line:column of the bad value.
std::vector<double> read_torpor_rates(const std::string& path);
std::vector<double> read_torpor_rates(std::istream& in, const std::string& source);

}  // namespace parallax

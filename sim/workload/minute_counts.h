// File: sim/workload/minute_counts.h
// Per-minute invocation counts of a set of functions: what the Torpor samples and the Azure
// Functions 2019 invocation files hold. minute_expansion.h turns them into Arrivals.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace parallax {

struct FunctionMinuteCounts {
  std::string name;                 // trace identity ("owner/app/function" hashes, or "f<i>")
  std::vector<uint32_t> per_minute; // invocations in minute 0, 1, ...
};

struct MinuteCounts {
  std::vector<FunctionMinuteCounts> functions;  // every function has the same number of minutes
  size_t minutes() const { return functions.empty() ? 0 : functions.front().per_minute.size(); }
};

}  // namespace parallax

// File: sim/workload/azure2021_trace.h
// Reader for the Azure Functions 2021 per-invocation trace (`app,func,end_timestamp,duration`, both
// in seconds since the trace start; REFERENCE.md §9.1). Rows are not in time order: the reader
// returns arrivals at start = end_timestamp − duration, sorted stably (equal starts keep file order).
// Sorting needs every row, so memory is ~32 bytes per invocation plus one name per function.
#pragma once

#include <cstddef>
#include <istream>
#include <limits>
#include <string>

#include "sim/workload/arrival.h"

namespace parallax {

// Function indices follow the order of each (app, func) pair's first row in the file; names are
// "app/func". With max_functions = N, rows of any function after the first N are skipped (and
// still checked). Arrival::recorded_duration holds the duration column. Times are exact: the
// decimal text is converted to picoseconds without going through binary floating point.
// The stream overload reads the file's text from `in`, naming `source` in errors.
TraceArrivals read_azure2021_trace(const std::string& path,
                                   size_t max_functions = std::numeric_limits<size_t>::max());
TraceArrivals read_azure2021_trace(std::istream& in, const std::string& source,
                                   size_t max_functions = std::numeric_limits<size_t>::max());

}  // namespace parallax

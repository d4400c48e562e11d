// File: sim/report/chrome_trace.h
// trace.json: an ActivityLog as a Chrome trace event file that Perfetto (ui.perfetto.dev) and
// chrome://tracing open. One process per GPU, per other node and per link direction; slices for
// kernels and copies (with a flow arrow from a copy's source slice to its destination slice),
// async slices for collectives and for flows on links, and two counters per link. An experiment may add counters and requests with flow arrows to their kernels
// (trace_annotations.h). docs/metrics.md lists every track; trace_tracks.h has the thread layout
// and lane rule. Deciding which activities are recorded is left to the platform.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <ostream>

#include "sim/platform/activity_record.h"
#include "sim/report/trace_annotations.h"

namespace parallax {

struct ChromeTraceOptions {
  // Above this many records, only the first max_records by (start, id) are written, with the
  // annotations' counter samples and requests from before the first record left out, and the file
  // says so (a global instant event and the top-level "metadata"); the returned stats too. 0: no
  // limit. Runners pass the scenario's output.trace_limit.
  size_t max_records = 2'000'000;
};

struct ChromeTraceStats {
  size_t records_total = 0;
  size_t records_written = 0;
  bool truncated = false;
  uint64_t events_written = 0;
  uint64_t flows_written = 0;       // request -> activity arrows
  uint64_t copy_flows_written = 0;  // copy source -> destination arrows
};

// Throws std::invalid_argument (check_activity_log) before writing anything if the log is
// inconsistent, or if a counter has an empty unit or samples out of time order. The same log,
// options and annotations always give the same bytes. Flow arrows to activities that are not
// written (unknown ids, or cut by max_records) are left out.
ChromeTraceStats write_chrome_trace(std::ostream& out, const ActivityLog& log,
                                    const ChromeTraceOptions& options = {},
                                    const TraceAnnotations& annotations = {});

// The same, into `path` through AtomicFileWriter.
ChromeTraceStats write_chrome_trace_file(const std::filesystem::path& path, const ActivityLog& log,
                                         const ChromeTraceOptions& options = {},
                                         const TraceAnnotations& annotations = {});

}  // namespace parallax

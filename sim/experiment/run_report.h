// File: sim/experiment/run_report.h
// report.html at the end of `parallax run --out DIR`: reads back what the run wrote (summary.json
// and the kind's CSVs), adds the scenario text and provenance, and writes DIR/report.html
// atomically. The page for each kind is sim/report/report_pages.h; docs/reports.md reads it.
#pragma once

#include "sim/scenario/scenario.h"
#include "sim/experiment/run_options.h"

namespace parallax {

// Does nothing when options.out_dir is empty. Call after summary.json is written.
void write_run_report(const Scenario& sc, const RunOptions& options);

}  // namespace parallax

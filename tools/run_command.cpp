// File: tools/run_command.cpp
#include "tools/run_command.h"

#include <fmt/format.h>
#include <fmt/std.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "sim/experiment/experiment.h"
#include "sim/experiment/output_folder.h"
#include "sim/experiment/run_progress.h"
#include "sim/io/input_error.h"
#include "sim/scenario/scenario_loader.h"

namespace parallax {

std::string run_out_help() {
  return "write the outputs here: summary.json, timing.json (wall-clock figures) and report.html for every kind; "
         "trace.json (Perfetto) unless output.trace is false (not for cluster_packing); and per kind: transfers "
         "activities.csv (unless output.activities_csv is false); overlap results.csv (end_to_end: and ops.csv); "
         "serverless function_latency.csv, timeline.csv; colocate timeline.csv, ls_latency.csv; multiplex "
         "timeline.csv, shares.csv (docs/usage.md)";
}

std::string run_chakra_out_help() {
  return "kind training: also write the chosen step as Chakra ETs here, training.<rank>.et, every rank's own tasks "
         "(workload: {kind: chakra, trace: DIR} replays them to the same step time; docs/chakra.md)";
}

int run_command(const RunOptions& options) {
  // The progress line goes only to a terminal, never to a file or pipe, and not with --quiet.
  RunProgress progress(stderr, options.scenario_path.empty() ? "quickstart" : options.scenario_path,
                       !options.quiet && ::isatty(::fileno(stderr)) != 0);
  if (!options.out_dir.empty()) begin_run_folder(options.out_dir);
  Scenario sc = options.scenario_path.empty()
                    ? load_scenario_text(embedded_quickstart(), std::string(kQuickstartSource), options.overrides)
                    : load_scenario_file(options.scenario_path, options.overrides);
  if (options.seed) sc.seed = *options.seed;
  if (!options.chakra_out.empty() && sc.workload_kind != "training")
    throw InputError(SourceLocation{"<command line>", 0, 0}, "--chakra-out",
                     fmt::format("--chakra-out: only a kind: training scenario has a step to write (this one is kind: {})",
                                 sc.workload_kind));
  ExperimentContext context;
  context.out_dir = options.out_dir;
  context.chakra_out = options.chakra_out;
  context.progress = &progress;
  const Result result = run_experiment(sc, context);
  progress.finish();
  if (!options.out_dir.empty()) write_run_folder(options.out_dir, result, run_report_page(sc, options, result));
  if (!options.quiet) print_result(stdout, result, options.out_dir);
  return 0;
}

}  // namespace parallax

// File: tools/run_command.cpp
#include "tools/run_command.h"

#include <fmt/format.h>
#include <fmt/std.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "sim/engine/engine.h"
#include "sim/platform/sim_platform.h"
#include "sim/report/activities_csv.h"
#include "sim/report/atomic_file.h"
#include "sim/report/chrome_trace.h"
#include "sim/report/json_output.h"
#include "sim/report/run_summary.h"
#include "sim/report/run_timing.h"
#include "sim/scenario/scenario_loader.h"
#include "sim/workload/transfer_replay.h"
#include "sim/experiment/run_cluster_packing.h"
#include "sim/experiment/run_colocate.h"
#include "sim/experiment/run_multiplex.h"
#include "sim/experiment/policy_summary.h"
#include "sim/experiment/run_overlap.h"
#include "sim/experiment/run_progress.h"
#include "sim/experiment/run_report.h"
#include "sim/experiment/run_serverless.h"
#include "sim/experiment/version.h"

namespace parallax {

namespace {

RunSummary summarise(const Scenario& sc, const Engine& engine, const SimPlatform& platform,
                     const TransferReplay& replay) {
  RunSummary s;
  s.scenario = sc.name;
  s.hardware = sc.hardware.name;
  s.seed = sc.seed;
  s.parallax_version = kParallaxVersion;
  s.git_commit = kParallaxGitCommit;
  s.makespan = platform.last_finish();
  s.events = engine.events_processed();
  s.copies = platform.finished(ActivityKind::copy);
  s.kernels = platform.finished(ActivityKind::kernel);
  s.collectives_count = platform.finished(ActivityKind::collective);
  const TransferTotals& totals = replay.transfer_totals();
  s.transfers.count = totals.count;
  s.transfers.sum_completion_s = totals.sum_completion_s();
  s.transfers.sum_fct_s = totals.sum_fct_s();
  for (const CollectiveOutcome& c : replay.collectives())
    s.collectives.push_back({c.name, to_string(c.op), c.gpus, c.bytes, c.start, c.finish});
  const auto& dirs = platform.topology().directions();
  const auto& usage = platform.link_usage();
  for (size_t i = 0; i < dirs.size(); ++i)
    s.links.push_back({dirs[i].name, to_string(dirs[i].kind), dirs[i].bandwidth_Bps, usage[i].bytes, usage[i].busy,
                       usage[i].transfers});
  s.bytes_moved = platform.bytes_copied();
  return s;
}

// The folder of a run is new or a directory. Its summary.json and report.html (derived from it) go
// before anything else, so that a run that fails, even while loading, never leaves an earlier
// summary looking complete; every runner writes them last. A run killed earlier may have left
// NAME.tmp.PID there; nothing writes there yet.
void begin_run_folder(const std::filesystem::path& dir) {
  std::error_code ec;
  if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec))
    throw OutputError(fmt::format("--out {}: exists and is not a folder", dir));
  // Created here, before the scenario is loaded, so that a folder that cannot be made (under a
  // file, on a read-only or virtual file system) is the user's error at once, with its reason.
  std::filesystem::create_directories(dir, ec);
  if (ec) throw output_error("--out: cannot create the folder", dir, ec.value());
  remove_stale_temporaries(dir);
  for (const char* earlier : {"summary.json", "report.html"}) {
    std::filesystem::remove(dir / earlier, ec);
    if (ec) throw output_error("--out: cannot remove the earlier", dir / earlier, ec.value());
  }
}

}  // namespace

std::string run_out_help() {
  return "write the outputs here: summary.json, timing.json (wall-clock figures) and report.html for every kind; "
         "trace.json (Perfetto) unless output.trace is false (not for cluster_packing); and per kind: transfers "
         "activities.csv (unless output.activities_csv is false); overlap results.csv (end_to_end: and ops.csv); "
         "serverless function_latency.csv, timeline.csv; colocate timeline.csv, ls_latency.csv; multiplex "
         "timeline.csv, shares.csv (docs/usage.md)";
}

int run_command(const RunOptions& given) {
  // The progress line goes only to a terminal, never to a file or pipe, and not with --quiet.
  RunProgress progress(stderr, given.scenario_path.empty() ? "quickstart" : given.scenario_path,
                       !given.quiet && ::isatty(::fileno(stderr)) != 0);
  RunOptions options = given;
  options.progress = &progress;
  if (!options.out_dir.empty()) begin_run_folder(options.out_dir);
  Scenario sc = options.scenario_path.empty()
                    ? load_scenario_text(embedded_quickstart(), std::string(kQuickstartSource), options.overrides)
                    : load_scenario_file(options.scenario_path, options.overrides);
  if (options.seed) sc.seed = *options.seed;
  if (sc.workload_kind == "overlap") return run_overlap(sc, options);
  if (sc.workload_kind == "serverless") return run_serverless(sc, options);
  if (sc.workload_kind == "colocate" || sc.workload_kind == "multiplex" || sc.workload_kind == "cluster_packing") {
    const int rc = sc.workload_kind == "colocate"    ? run_colocate(sc, options)
                   : sc.workload_kind == "multiplex" ? run_multiplex(sc, options)
                                                     : run_cluster_packing(sc, options);
    if (rc == 0) write_run_report(sc, options);  // after their summary.json
    return rc;
  }
  const bool want_log = !options.out_dir.empty() && (sc.output.activities_csv || sc.output.trace);

  ActivityLog log;
  Engine engine;
  SimPlatform platform(engine, sc.hardware, want_log ? &log : nullptr);
  TransferCsvStream csv_rows(sc.transfers, NodeDirectory(sc.hardware));
  TransferReplay replay(platform, sc.transfers, csv_rows);
  replay.start();
  const WallClock clock;
  // engine.run(), one event at a time so that the share of workload items done can be reported.
  for (uint64_t fired = 0; engine.step();)
    if ((++fired & 0xfff) == 0 && replay.total() > 0)
      progress.report(static_cast<double>(replay.done()) / static_cast<double>(replay.total()));
  const double wall_s = clock.elapsed_s();
  if (!replay.finished())
    throw std::logic_error(fmt::format("{} of {} workload items never finished", replay.total() - replay.done(),
                                       replay.total()));

  const RunSummary summary = summarise(sc, engine, platform, replay);
  if (!options.out_dir.empty()) {
    const std::filesystem::path dir(options.out_dir);
    std::filesystem::create_directories(dir);
    // summary.json goes last: its presence says the directory is complete (begin_run_folder).
    if (sc.output.activities_csv) write_activities_csv_file(dir / "activities.csv", log);
    if (sc.output.trace) {
      note_trace_cut(write_chrome_trace_file(dir / "trace.json", log, trace_options(sc)));
    }
    write_timing_json(dir, timing_json(wall_s, summary.makespan.to_seconds(), static_cast<double>(summary.events)));
    write_json_atomically(dir / "summary.json", to_json(summary));
    write_run_report(sc, options);
  }
  progress.finish();
  if (!options.quiet) {
    std::fputs(format_run_report(summary, wall_s, options.out_dir).c_str(), stdout);
    if (!options.out_dir.empty()) std::printf("\noutputs: %s\n", options.out_dir.c_str());
  }
  return 0;
}

}  // namespace parallax

// File: sim/experiment/transfers_experiment.cpp
// workload.kind == transfers: the scenario's copies and collectives replayed on SimPlatform
// (sim/scenario/transfer_replay.h); summary.json is RunSummary (sim/report/run_summary.h),
// activities.csv and trace.json hold every activity. The link statistics are SimPlatform's own,
// so this kind always runs there.
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/engine/engine.h"
#include "sim/experiment/experiment.h"
#include "sim/experiment/policy_summary.h"
#include "sim/experiment/run_progress.h"
#include "sim/experiment/version.h"
#include "sim/platform/sim_platform.h"
#include "sim/report/activities_csv.h"
#include "sim/report/chrome_trace.h"
#include "sim/report/report_pages.h"
#include "sim/report/run_summary.h"
#include "sim/report/run_timing.h"
#include "sim/scenario/transfer_replay.h"

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

}  // namespace

Result run_transfers(const Scenario& sc, const ExperimentContext& ctx) {
  const bool want_log = ctx.outputs() && (sc.output.activities_csv || sc.output.trace);
  // Held by the output files' writers, which stream it when the folder is written.
  const auto log = std::make_shared<ActivityLog>();
  Engine engine;
  SimPlatform platform(engine, sc.hardware, want_log ? log.get() : nullptr);
  TransferCsvStream csv_rows(sc.transfers, NodeDirectory(sc.hardware));
  TransferReplay replay(platform, sc.transfers, csv_rows);
  replay.start();
  const WallClock clock;
  // engine.run(), one event at a time so that the share of workload items done can be reported.
  for (uint64_t fired = 0; engine.step();)
    if ((++fired & 0xfff) == 0 && replay.total() > 0 && ctx.progress != nullptr)
      ctx.progress->report(static_cast<double>(replay.done()) / static_cast<double>(replay.total()));
  const double wall_s = clock.elapsed_s();
  if (!replay.finished())
    throw std::logic_error(fmt::format("{} of {} workload items never finished", replay.total() - replay.done(),
                                       replay.total()));

  const RunSummary summary = summarise(sc, engine, platform, replay);
  Result r;
  r.summary = to_json(summary);
  r.timing = timing_json(wall_s, summary.makespan.to_seconds(), static_cast<double>(summary.events));
  if (ctx.outputs() && sc.output.activities_csv)
    r.files.push_back({"activities.csv", "", [log](std::ostream& o) { write_activities_csv(o, *log); }});
  if (ctx.outputs() && sc.output.trace) r.files.push_back(trace_file(sc, log));
  r.console = run_report_tables(summary, wall_s, ctx.out_dir);
  return r;
}

HtmlReport transfers_page(const Scenario&, const Result& r) { return transfers_report_page(r.summary); }

}  // namespace parallax

// File: sim/experiment/overlap_des.cpp
// One schedule on a fresh SimPlatform, its log appended (overlap_des.h).
#include "sim/experiment/overlap_des.h"

#include <algorithm>
#include <stdexcept>

#include "sim/engine/engine.h"
#include "sim/platform/sim_platform.h"
#include "sim/policies/step_graph/step_graph_run.h"

namespace parallax {

namespace {

void append_shifted(ActivityLog& into, ActivityLog& run) {
  Time offset;
  uint64_t id_base = 0;
  if (!into.records.empty()) {
    for (const ActivityRecord& r : into.records) {
      offset = std::max(offset, r.end);
      id_base = std::max(id_base, r.id);
    }
    offset = offset + Time::seconds(kTraceGap_s);
  }
  into.link_directions = std::move(run.link_directions);
  into.gpu_models = std::move(run.gpu_models);
  for (ActivityRecord& r : run.records) {
    r.id += id_base;
    if (r.parent != 0) r.parent += id_base;
    r.issued = r.issued + offset;
    r.start = r.start + offset;
    r.end = r.end + offset;
    into.records.push_back(std::move(r));
  }
}

}  // namespace

double run_overlap_schedule_s(const HardwareSpec& hardware, const StepGraph& schedule, ActivityLog* log) {
  Engine engine;
  ActivityLog run_log;
  SimPlatform platform(engine, hardware, log != nullptr ? &run_log : nullptr);
  StepGraphRun run(platform, schedule);
  run.start();
  engine.run();
  if (!run.finished()) throw std::logic_error("overlap DES: the task graph did not finish");
  if (log != nullptr) append_shifted(*log, run_log);
  return (run.finished_at() - run.started_at()).to_seconds();
}

}  // namespace parallax

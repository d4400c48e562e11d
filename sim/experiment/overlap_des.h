// File: sim/experiment/overlap_des.h
// The overlap DES driver: one schedule (a StepGraph from sim/policies/overlap) run by
// StepGraphRun alone on a fresh Engine + SimPlatform of the scenario's machine, and its time. Optionally the run's activities are
// appended to an ActivityLog, shifted to start after what the log already holds, so that several
// runs (the strategies of one configuration, the ops of one layer) read as one Perfetto timeline.
#pragma once

#include "sim/engine/sim_time.h"
#include "sim/platform/activity_record.h"
#include "sim/platform/hardware_spec.h"
#include "sim/policies/overlap/overlap_schedule.h"

namespace parallax {

// Gap left between two runs appended to one log.
inline constexpr double kTraceGap_s = 5e-6;

// Seconds from start() to the last task's end. Throws std::logic_error if the graph does not
// finish. With `log`: records get ids after the log's largest, times shifted by the log's last end
// + kTraceGap_s (0 for an empty log); the link table and GPU models are taken from the platform.
double run_overlap_schedule_s(const HardwareSpec& hardware, const StepGraph& schedule, ActivityLog* log = nullptr);

}  // namespace parallax

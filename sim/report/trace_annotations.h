// File: sim/report/trace_annotations.h
// What an experiment adds to trace.json beyond the platform's ActivityLog: counters over time
// (GPU memory occupancy, SM or bandwidth shares, queue lengths), requests, each drawn as a slice
// with a flow arrow to every kernel or copy that served it, phases (which strategy or policy a
// stretch of the timeline shows), and extra args on activities' slices. The ActivityLog says what the
// hardware did; annotations say why (which request, which policy state). Pass them to
// write_chrome_trace (chrome_trace.h); docs/metrics.md#annotations lists the tracks they give.
//
//   TraceAnnotations notes;
//   notes.counters.push_back({.node = "gpu0", .name = "memory used", .unit = "GB"});
//   notes.counters.back().samples.push_back({Time::seconds(1.5), 42.0});
//   notes.requests.push_back({.group = "service resnet50", .name = "req 17", .arrival = a,
//                             .finish = f, .activities = {kernel_id_1, kernel_id_2}});
//   write_chrome_trace_file(dir / "trace.json", log, {}, notes);
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/engine/sim_time.h"

namespace parallax {

struct TraceCounterSample {
  Time at;
  double value = 0;  // holds until the next sample (a step function, as Perfetto draws it)
};

// One counter track. On a GPU node ("gpu0") it shows inside that GPU's process; on any other name
// it shows in a process of that name, after the GPUs ("PCIe switch A", "scheduler").
struct TraceCounter {
  std::string node{};
  std::string name{};  // "memory used"; Perfetto shows "<name> <unit>"
  std::string unit{};  // "GB", "SMs", "%"; the counter's arg key, so not empty
  std::vector<TraceCounterSample> samples{};  // in time order
};

// One request (or batch, or job): a slice from arrival to finish on a "requests" thread of the
// process named `group`, and a flow arrow from it to the start of each listed activity.
struct TraceRequest {
  std::string group{};   // "service resnet50", "LS requests": one process per group, in first-seen order
  std::string name{};    // slice label: "req 17", "batch 3 (8 requests)"
  Time arrival{}, finish{};
  std::vector<uint64_t> activities{};  // ActivityRecord ids (Platform::launch/copy return them)
};

// Numbers added to one activity's slice args, after the platform's own (id, flops, partition, ...):
// why it took as long as it did (colocate: its solo time, slowdown, interference α, the wait that
// eviction cost it). Keys must not repeat the platform's; activities not written are skipped.
struct TraceActivityArgs {
  uint64_t activity = 0;  // ActivityRecord id
  std::vector<std::pair<std::string, double>> numbers{};
  // Kernels only: the thread of its GPU it goes on instead of "kernels" / "SM partition NAME"
  // ("LS kernels"), so that a tenant keeps one named track whatever partitions a policy makes;
  // the partition stays in the slice's args. Empty: the platform's thread.
  std::string track{};
};

// One stretch of the run that a person navigates by: a strategy of an overlap trace, the policy a
// colocate or serverless trace shows. Drawn as a slice on the "phases" thread of a "phases"
// process placed first, so Perfetto's overview shows where each begins and ends.
struct TracePhase {
  std::string name{};  // "strategy interdecom (d=4)", "policy sgdrc"
  Time start{}, end{};
};

struct TraceAnnotations {
  std::vector<TraceCounter> counters{};
  std::vector<TraceRequest> requests{};
  std::vector<TraceActivityArgs> activity_args{};
  std::vector<TracePhase> phases{};

  bool empty() const { return counters.empty() && requests.empty() && activity_args.empty() && phases.empty(); }
};

}  // namespace parallax

// File: sim/report/trace_tracks.h
// Where each activity goes in trace.json: which process (a request group, a GPU, another node such
// as a host, or a link direction) and which thread ("requests", "kernels", a name an annotation
// gives ("LS kernels"), "SM partition NAME", "copies out", "copies in", "collectives"), with names a person understands ("GPU 3 (H200)" /
// "SM partition ls", "NVLink gpu0→gpu3", "PCIe host0→pcie_sw0") and a fixed sort order. Writing
// the events is left to chrome_trace.cpp.
//
// Lane rule. Complete ("X") slices on one thread must nest, but concurrent copies and kernels
// overlap without nesting. So each stream is split into lanes: slices are taken in order of
// (start, position in the input) and each goes to the lowest-numbered lane whose previous slice
// has ended (end <= start); a new lane opens when none has. Lane 1 is named after the stream
// ("copies out"), lane k > 1 gets " (k)" ("copies out (2)"). The number of lanes of a stream is
// its peak concurrency.
#pragma once

#include <map>
#include <span>
#include <string>
#include <vector>

#include "sim/platform/activity_record.h"
#include "sim/report/trace_annotations.h"

namespace parallax {

struct TraceThread {
  int tid = 0;
  std::string name;
};

struct TraceProcess {
  int pid = 0;
  std::string name;
  std::vector<TraceThread> threads;  // in display order; thread_sort_index = position
};

struct TracePlace {
  int pid = 0;
  int tid = 0;
};

struct TraceTracks {
  std::vector<TraceProcess> processes;  // in display order; process_sort_index = position
  // Per input record: kernel -> its GPU (partition) thread; copy -> the source's "copies out"
  // then the destination's "copies in"; collective -> the "collectives" thread of each GPU in
  // its group (see collective_group).
  std::vector<std::vector<TracePlace>> places;
  std::vector<int> link_pid;  // by link-direction id; 0 if no selected record crossed it
  int link_tid = 1;           // the "flows" thread of every link process
  std::map<std::string, int> node_pid;  // node name ("gpu0", "host0", a counter's node) -> its process
  std::vector<TracePlace> request_places;  // per annotations.requests entry (lanes as for streams)
  std::vector<TracePlace> phase_places;    // per annotations.phases entry (lanes as for streams)
};

// Builds the layout for `records` (a subset of log.records, in the order they will be written).
// Every GPU of log.gpu_models gets a process, active or not; other nodes and link directions get
// one only if a selected record (or, for nodes, an annotation counter) uses them. Request groups
// of `annotations` come first in first-seen order (after a "phases" process when there are
// phases), then GPUs by number, other nodes by name, and links by id. The log must pass check_activity_log.
TraceTracks layout_trace_tracks(const ActivityLog& log, std::span<const ActivityRecord* const> records,
                                const TraceAnnotations& annotations = {});

// The process name of a link direction: "NVLink gpu0→nvswitch", "PCIe host0→pcie_sw0", or
// "link NAME" when the kind is unknown.
std::string link_process_name(const LinkDirectionInfo& link);

// The nodes a collective ran on, sorted GPU-first as above: its src and dst plus the src and dst
// of every record in the log whose parent is the collective. The record has no group field, so a
// collective without ring steps shows on src (and dst) only.
std::map<uint64_t, std::vector<std::string>> collective_groups(const ActivityLog& log);

// "gpu3" -> 3; -1 for anything else ("host0", "gpu", "gpu3x").
int gpu_index(const std::string& node);

// "GPU 3 (H100-SXM5)", "GPU 3" when the model is unknown, or the node name for non-GPU nodes.
std::string node_process_name(const ActivityLog& log, const std::string& node);

}  // namespace parallax

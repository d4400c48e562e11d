// File: sim/platform/activity_record.h
// What a platform reports about each finished activity (copy, kernel, collective step, timer-free
// work), for CSV tables and the Perfetto timeline. Recording is optional: a benchmark of tens of
// millions of transfers runs with no log at all.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/engine/sim_time.h"

namespace parallax {

enum class ActivityKind : uint8_t { copy, kernel, collective };

inline const char* to_string(ActivityKind k) {
  switch (k) {
    case ActivityKind::copy: return "copy";
    case ActivityKind::kernel: return "kernel";
    case ActivityKind::collective: return "collective";
  }
  return "?";
}

struct ActivityRecord {
  uint64_t id = 0;             // platform-wide, in start order
  uint64_t parent = 0;         // for a ring step: the collective's id; 0 if none
  ActivityKind kind = ActivityKind::copy;
  std::string name;            // label given by the caller, or generated
  std::string src, dst;        // node names ("gpu0", "host0"); for a kernel, the GPU in both
  std::string partition;       // kernel: partition name or "" for the whole GPU
  Time issued;                 // when the caller asked for it
  Time start;                  // when it began to use bandwidth/compute (after latency)
  Time end;                    // when it finished
  double bytes = 0;            // payload bytes (copy, collective)
  double flops = 0;            // kernel
  std::vector<int> links;      // copy: the link-direction ids it crossed, in route order
};

// Link-direction ids in ActivityRecord::links index this table.
struct LinkDirectionInfo {
  std::string name;      // e.g. "gpu0→nvswitch"
  std::string link_kind; // "nvlink", "pcie", ...
  double bandwidth_Bps;
};

struct ActivityLog {
  std::vector<ActivityRecord> records;
  std::vector<LinkDirectionInfo> link_directions;
  std::vector<std::string> gpu_models;  // index = GPU id
};

}  // namespace parallax

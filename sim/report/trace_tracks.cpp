// File: sim/report/trace_tracks.cpp
#include "sim/report/trace_tracks.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <queue>
#include <set>
#include <tuple>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

namespace parallax {
namespace {

// Streams of one node, in display order.
enum class StreamKind { kernels, named, partition, copies_out, copies_in, collectives };

std::string stream_name(StreamKind kind, const std::string& partition) {
  switch (kind) {
    case StreamKind::kernels: return "kernels";
    case StreamKind::named: return partition;
    case StreamKind::partition: return "SM partition " + partition;
    case StreamKind::copies_out: return "copies out";
    case StreamKind::copies_in: return "copies in";
    case StreamKind::collectives: return "collectives";
  }
  return "?";
}

struct Slice {
  Time start, end;
  size_t record;  // position in the input
  size_t slot;    // index into places[record]
};

struct Stream {
  std::vector<Slice> slices;
  std::vector<int> lane_of_slice;
  int lanes = 0;
};

// The lane rule of trace_tracks.h.
void assign_lanes(Stream& stream) {
  std::vector<size_t> order(stream.slices.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Slice& x = stream.slices[a];
    const Slice& y = stream.slices[b];
    return std::tie(x.start, x.record) < std::tie(y.start, y.record);
  });
  using Busy = std::pair<Time, int>;  // (end, lane)
  std::priority_queue<Busy, std::vector<Busy>, std::greater<>> busy;
  std::priority_queue<int, std::vector<int>, std::greater<>> free_lanes;
  stream.lane_of_slice.assign(stream.slices.size(), 0);
  for (size_t i : order) {
    const Slice& s = stream.slices[i];
    while (!busy.empty() && busy.top().first <= s.start) {
      free_lanes.push(busy.top().second);
      busy.pop();
    }
    int lane;
    if (free_lanes.empty()) {
      lane = stream.lanes++;
    } else {
      lane = free_lanes.top();
      free_lanes.pop();
    }
    stream.lane_of_slice[i] = lane;
    busy.emplace(s.end, lane);
  }
}

struct NodeOrder {
  bool operator()(const std::string& a, const std::string& b) const {
    const int ia = gpu_index(a), ib = gpu_index(b);
    const bool other_a = ia < 0, other_b = ib < 0;
    return std::tie(other_a, ia, a) < std::tie(other_b, ib, b);
  }
};

using StreamKey = std::pair<StreamKind, std::string>;  // (kind, partition)
using NodeStreams = std::map<StreamKey, Stream>;

}  // namespace

int gpu_index(const std::string& node) {
  if (node.size() <= 3 || node.compare(0, 3, "gpu") != 0) return -1;
  int index = -1;
  const char* first = node.data() + 3;
  const char* last = node.data() + node.size();
  const auto [end, ec] = std::from_chars(first, last, index);
  if (ec != std::errc() || end != last || *first == '-' || *first == '+') return -1;
  return index;
}

std::string node_process_name(const ActivityLog& log, const std::string& node) {
  const int gpu = gpu_index(node);
  if (gpu < 0) return node.empty() ? "(unnamed node)" : node;
  const auto i = static_cast<size_t>(gpu);
  if (i < log.gpu_models.size() && !log.gpu_models[i].empty()) {
    return fmt::format("GPU {} ({})", gpu, log.gpu_models[i]);
  }
  return fmt::format("GPU {}", gpu);
}

std::map<uint64_t, std::vector<std::string>> collective_groups(const ActivityLog& log) {
  std::map<uint64_t, std::set<std::string, NodeOrder>> groups;
  for (const ActivityRecord& r : log.records) {
    if (r.kind != ActivityKind::collective) continue;
    auto& group = groups[r.id];
    if (!r.src.empty()) group.insert(r.src);
    if (!r.dst.empty()) group.insert(r.dst);
  }
  for (const ActivityRecord& r : log.records) {
    if (r.parent == 0) continue;
    const auto it = groups.find(r.parent);
    if (it == groups.end()) continue;
    if (!r.src.empty()) it->second.insert(r.src);
    if (!r.dst.empty()) it->second.insert(r.dst);
  }
  std::map<uint64_t, std::vector<std::string>> result;
  for (auto& [id, nodes] : groups) result[id] = std::vector<std::string>(nodes.begin(), nodes.end());
  return result;
}

std::string link_process_name(const LinkDirectionInfo& link) {
  if (link.link_kind == "nvlink") return "NVLink " + link.name;
  if (link.link_kind == "pcie") return "PCIe " + link.name;
  if (link.link_kind == "network") return "network " + link.name;
  return "link " + link.name;
}

TraceTracks layout_trace_tracks(const ActivityLog& log, std::span<const ActivityRecord* const> records,
                                const TraceAnnotations& annotations) {
  TraceTracks tracks;
  tracks.places.resize(records.size());
  std::map<std::string, NodeStreams, NodeOrder> nodes;
  for (size_t g = 0; g < log.gpu_models.size(); ++g) nodes[fmt::format("gpu{}", g)];
  for (const TraceCounter& c : annotations.counters) nodes[c.node];
  int pid = 0;

  // Phases: one process, first, its slices in lanes like any stream.
  if (!annotations.phases.empty()) {
    Stream stream;
    for (size_t i = 0; i < annotations.phases.size(); ++i)
      stream.slices.push_back({annotations.phases[i].start, annotations.phases[i].end, i, 0});
    assign_lanes(stream);
    TraceProcess process{++pid, "phases", {}};
    for (int lane = 0; lane < stream.lanes; ++lane)
      process.threads.push_back({lane + 1, lane == 0 ? "phases" : fmt::format("phases ({})", lane + 1)});
    tracks.phase_places.resize(annotations.phases.size());
    for (size_t s = 0; s < stream.slices.size(); ++s)
      tracks.phase_places[stream.slices[s].record] = {process.pid, 1 + stream.lane_of_slice[s]};
    tracks.processes.push_back(std::move(process));
  }

  // Request groups: one process each, requests laid out in lanes like any stream.
  std::vector<std::string> group_names;
  std::map<std::string, Stream> request_groups;
  tracks.request_places.resize(annotations.requests.size());
  for (size_t i = 0; i < annotations.requests.size(); ++i) {
    const TraceRequest& q = annotations.requests[i];
    if (!request_groups.contains(q.group)) group_names.push_back(q.group);
    request_groups[q.group].slices.push_back({q.arrival, q.finish, i, 0});
  }
  for (const std::string& name : group_names) {
    Stream& stream = request_groups[name];
    assign_lanes(stream);
    TraceProcess process{++pid, name, {}};
    for (int lane = 0; lane < stream.lanes; ++lane)
      process.threads.push_back({lane + 1, lane == 0 ? "requests" : fmt::format("requests ({})", lane + 1)});
    for (size_t s = 0; s < stream.slices.size(); ++s)
      tracks.request_places[stream.slices[s].record] = {process.pid, 1 + stream.lane_of_slice[s]};
    tracks.processes.push_back(std::move(process));
  }

  const auto add_slice = [&](const std::string& node, StreamKey key, size_t rec) {
    const ActivityRecord& r = *records[rec];
    const size_t slot = tracks.places[rec].size();
    tracks.places[rec].emplace_back();
    nodes[node][std::move(key)].slices.push_back({r.start, r.end, rec, slot});
  };
  const auto groups = collective_groups(log);
  std::unordered_map<uint64_t, std::string> track_of;  // kernels an annotation puts on a named thread
  for (const TraceActivityArgs& x : annotations.activity_args)
    if (!x.track.empty()) track_of.emplace(x.activity, x.track);
  std::set<int> used_links;
  for (size_t i = 0; i < records.size(); ++i) {
    const ActivityRecord& r = *records[i];
    switch (r.kind) {
      case ActivityKind::kernel: {
        const std::string& gpu = r.src.empty() ? r.dst : r.src;
        if (const auto named = track_of.find(r.id); named != track_of.end())
          add_slice(gpu, {StreamKind::named, named->second}, i);
        else if (r.partition.empty()) add_slice(gpu, {StreamKind::kernels, ""}, i);
        else add_slice(gpu, {StreamKind::partition, r.partition}, i);
        break;
      }
      case ActivityKind::copy:
        add_slice(r.src, {StreamKind::copies_out, ""}, i);
        add_slice(r.dst, {StreamKind::copies_in, ""}, i);
        break;
      case ActivityKind::collective:
        for (const std::string& node : groups.at(r.id)) add_slice(node, {StreamKind::collectives, ""}, i);
        break;
    }
    if (r.kind != ActivityKind::kernel) used_links.insert(r.links.begin(), r.links.end());
  }

  for (auto& [node, streams] : nodes) {
    TraceProcess process{++pid, node_process_name(log, node), {}};
    tracks.node_pid[node] = process.pid;
    int tid = 0;
    for (auto& [key, stream] : streams) {
      const std::string name = stream_name(key.first, key.second);
      // Async collective slices may overlap freely: one thread, no lanes.
      if (key.first == StreamKind::collectives) {
        stream.lanes = 1;
        stream.lane_of_slice.assign(stream.slices.size(), 0);
      } else {
        assign_lanes(stream);
      }
      const int first_tid = tid + 1;
      for (int lane = 0; lane < stream.lanes; ++lane) {
        process.threads.push_back({++tid, lane == 0 ? name : fmt::format("{} ({})", name, lane + 1)});
      }
      for (size_t s = 0; s < stream.slices.size(); ++s) {
        const Slice& slice = stream.slices[s];
        tracks.places[slice.record][slice.slot] = {process.pid, first_tid + stream.lane_of_slice[s]};
      }
    }
    tracks.processes.push_back(std::move(process));
  }

  tracks.link_pid.assign(log.link_directions.size(), 0);
  for (int link : used_links) {
    const LinkDirectionInfo& info = log.link_directions[static_cast<size_t>(link)];
    TraceProcess process{++pid, link_process_name(info), {{tracks.link_tid, "flows"}}};
    tracks.link_pid[static_cast<size_t>(link)] = process.pid;
    tracks.processes.push_back(std::move(process));
  }
  return tracks;
}

}  // namespace parallax

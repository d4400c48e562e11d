// File: sim/policies/multiplex/cluster_packing_replay.cpp
#include "sim/policies/multiplex/cluster_packing_replay.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <queue>
#include <vector>

namespace parallax {

PackingMetrics replay_cluster_packing(std::span<const PodRequest> pods, std::span<const ClusterNode> nodes,
                                      PackingScheme scheme, const GpuPartitioning* mig_geometry, PackingReplay mode) {
  ClusterPacker packer(nodes, scheme, mig_geometry);
  PackingMetrics m;
  m.timed = mode == PackingReplay::timed &&
            std::all_of(pods.begin(), pods.end(), [](const PodRequest& p) { return p.has_times; });
  const auto arrival = [&](size_t i) { return m.timed ? pods[i].creation_s : int64_t{0}; };
  m.pods = static_cast<int64_t>(pods.size());
  m.gpus_in_cluster = static_cast<int>(packer.gpus().size());

  std::vector<size_t> order(pods.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return arrival(a) < arrival(b); });
  // Departures by (time, pod index): deterministic at equal times.
  using Departure = std::pair<int64_t, size_t>;
  std::priority_queue<Departure, std::vector<Departure>, std::greater<>> departures;
  std::vector<std::optional<PodPlacement>> where(pods.size());

  double occupied_area = 0, unrequested_area = 0, requested_area = 0;
  int64_t now = pods.empty() ? 0 : arrival(order.front());
  const int64_t start = now;
  const auto advance = [&](int64_t to) {
    const double dt = static_cast<double>(to - now);
    occupied_area += dt * packer.occupied_gpus();
    requested_area += dt * static_cast<double>(packer.requested_milli());
    unrequested_area += dt * (1000.0 * packer.occupied_gpus() - static_cast<double>(packer.requested_milli()));
    now = to;
  };

  for (size_t i : order) {
    const PodRequest& pod = pods[i];
    while (!departures.empty() && departures.top().first <= arrival(i)) {
      const auto [t, j] = departures.top();
      departures.pop();
      advance(t);
      packer.remove(pods[j], *where[j]);
      where[j].reset();
    }
    advance(arrival(i));
    m.gpu_pods += pod.num_gpu > 0;
    where[i] = packer.place(pod);
    if (where[i]) {
      ++m.placed_pods;
      if (m.timed) departures.push({pod.deletion_s, i});
    } else {
      ++m.unplaced_pods;
      if (pod.num_gpu > 0) {
        ++m.unplaced_gpu_pods;
        m.unplaced_fragmented += packer.free_requested_capacity(pod) >= int64_t{pod.num_gpu} * pod.gpu_milli;
      }
    }
    m.gpus_needed = std::max(m.gpus_needed, packer.occupied_gpus());
  }
  m.window_s = static_cast<double>(now - start);
  const double gpus = std::max(1, m.gpus_in_cluster);
  if (m.window_s > 0) {
    m.mean_gpus_occupied = occupied_area / m.window_s;
    m.gpu_allocation = requested_area / (1000.0 * gpus * m.window_s);
    m.fragmentation = occupied_area > 0 ? unrequested_area / (1000.0 * occupied_area) : 0;
  } else {  // fill mode: the state after the last arrival
    m.mean_gpus_occupied = packer.occupied_gpus();
    m.gpu_allocation = static_cast<double>(packer.requested_milli()) / (1000.0 * gpus);
    m.fragmentation = packer.occupied_gpus() > 0
                          ? 1.0 - static_cast<double>(packer.requested_milli()) / (1000.0 * packer.occupied_gpus())
                          : 0;
  }
  return m;
}

}  // namespace parallax

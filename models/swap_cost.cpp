// File: models/swap_cost.cpp
#include "models/swap_cost.h"

#include <algorithm>
#include <stdexcept>

namespace parallax::models {

std::vector<int64_t> swap_group_sizes(int64_t total_bytes, int64_t group_bytes) {
  if (group_bytes <= 0) throw std::invalid_argument("swap group size must be positive");
  std::vector<int64_t> sizes;
  for (int64_t sent = 0; sent < total_bytes; sent += group_bytes)
    sizes.push_back(std::min(group_bytes, total_bytes - sent));
  return sizes;
}

std::vector<int64_t> swap_layer_groups(std::span<const SwapLayer> layers, int64_t group_bytes) {
  if (group_bytes <= 0) throw std::invalid_argument("swap group size must be positive");
  std::vector<int64_t> groups;
  int64_t end = 0;
  for (const SwapLayer& l : layers) {
    end += l.param_bytes;
    groups.push_back(end == 0 ? -1 : (end + group_bytes - 1) / group_bytes - 1);
  }
  return groups;
}

double total_param_bytes(std::span<const SwapLayer> layers) {
  double b = 0;
  for (const SwapLayer& l : layers) b += static_cast<double>(l.param_bytes);
  return b;
}

double total_compute_s(std::span<const SwapLayer> layers) {
  double s = 0;
  for (const SwapLayer& l : layers) s += l.compute_s;
  return s;
}

std::vector<double> swap_group_ready_s(std::span<const SwapLayer> layers, const SwapPath& path) {
  int64_t total = 0;
  for (const SwapLayer& l : layers) total += l.param_bytes;
  std::vector<double> ready;
  double t = 0;
  for (int64_t size : swap_group_sizes(total, path.group_bytes)) {
    t += path.latency_s + static_cast<double>(size) / path.bandwidth_Bps + path.group_overhead_s;
    ready.push_back(t);
  }
  return ready;
}

double resident_latency_s(std::span<const SwapLayer> layers) { return total_compute_s(layers); }

double whole_swap_latency_s(std::span<const SwapLayer> layers, const SwapPath& path) {
  const double bytes = total_param_bytes(layers);
  const double copy_s = bytes > 0 ? path.latency_s + bytes / path.bandwidth_Bps + path.group_overhead_s : 0;
  return copy_s + total_compute_s(layers);
}

double pipelined_swap_latency_s(std::span<const SwapLayer> layers, const SwapPath& path) {
  const std::vector<double> ready = swap_group_ready_s(layers, path);
  const std::vector<int64_t> group = swap_layer_groups(layers, path.group_bytes);
  double done = 0;
  for (size_t i = 0; i < layers.size(); ++i) {
    const double start = group[i] < 0 ? done : std::max(done, ready[static_cast<size_t>(group[i])]);
    done = start + layers[i].compute_s;
  }
  return done;
}

double pipelined_swap_estimate_s(std::span<const SwapLayer> layers, const SwapPath& path) {
  const double bytes = total_param_bytes(layers);
  const auto n = static_cast<double>(swap_group_sizes(static_cast<int64_t>(bytes), path.group_bytes).size());
  const double first = bytes > 0 ? std::min(bytes, static_cast<double>(path.group_bytes)) / path.bandwidth_Bps : 0;
  const double transfer = bytes / path.bandwidth_Bps + n * path.latency_s;
  return std::max(total_compute_s(layers), transfer) + first + n * path.group_overhead_s;
}

}  // namespace parallax::models

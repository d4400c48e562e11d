// File: models/collective_cost.cpp
// Names, ring step counts and nccl-tests' algbw/busbw (nccl-tests doc/PERFORMANCE.md, REFERENCE.md §2.3).
#include "models/collective_cost.h"

#include <stdexcept>

#include <fmt/format.h>

namespace parallax::models {

std::string_view to_string(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::all_reduce: return "all_reduce";
    case CollectiveOp::all_gather: return "all_gather";
    case CollectiveOp::reduce_scatter: return "reduce_scatter";
    case CollectiveOp::all_to_all: return "all_to_all";
    case CollectiveOp::broadcast: return "broadcast";
    case CollectiveOp::reduce: return "reduce";
    case CollectiveOp::send_recv: return "send_recv";
  }
  return "?";
}

std::string_view to_string(Protocol protocol) {
  switch (protocol) {
    case Protocol::ll: return "LL";
    case Protocol::ll128: return "LL128";
    case Protocol::simple: return "Simple";
  }
  return "?";
}

std::string_view to_string(LinkType link) {
  switch (link) {
    case LinkType::nvlink: return "nvlink";
    case LinkType::pcie: return "pcie";
    case LinkType::net: return "net";
  }
  return "?";
}

std::optional<CollectiveOp> parse_collective_op(std::string_view name) {
  for (CollectiveOp op : kAllCollectiveOps)
    if (to_string(op) == name) return op;
  return std::nullopt;
}

std::string collective_op_names() {
  std::string names;
  for (CollectiveOp op : kAllCollectiveOps) names += fmt::format("{}{}", names.empty() ? "" : ", ", to_string(op));
  return names;
}

int64_t ring_steps(CollectiveOp op, int64_t ranks) {
  if (ranks < 1) throw std::invalid_argument(fmt::format("ring_steps: ranks = {} < 1", ranks));
  if (ranks == 1) return 0;
  if (op == CollectiveOp::all_reduce) return 2 * (ranks - 1);
  if (op == CollectiveOp::send_recv) return 1;
  return ranks - 1;
}

double bus_bandwidth_factor(CollectiveOp op, int64_t ranks) {
  if (ranks < 1) {
    throw std::invalid_argument(fmt::format("bus_bandwidth_factor: ranks = {} < 1", ranks));
  }
  if (ranks == 1) return 0.0;
  const double p = static_cast<double>(ranks);
  switch (op) {
    case CollectiveOp::all_reduce: return 2.0 * (p - 1.0) / p;
    case CollectiveOp::all_gather:
    case CollectiveOp::reduce_scatter:
    case CollectiveOp::all_to_all: return (p - 1.0) / p;
    case CollectiveOp::broadcast:
    case CollectiveOp::reduce:
    case CollectiveOp::send_recv: return 1.0;
  }
  return 1.0;
}

double algorithm_bandwidth_Bps(double bytes, double time_s) {
  if (time_s <= 0) throw std::invalid_argument("algorithm_bandwidth_Bps: time_s must be > 0");
  return bytes / time_s;
}

double bus_bandwidth_Bps(CollectiveOp op, int64_t ranks, double bytes, double time_s) {
  return algorithm_bandwidth_Bps(bytes, time_s) * bus_bandwidth_factor(op, ranks);
}

}  // namespace parallax::models

// File: models/collective_cost.cpp
// Names, ring step counts and nccl-tests' algbw/busbw (REFERENCE.md §2.3).
#include "models/collective_cost.h"

#include <stdexcept>

#include <fmt/format.h>

namespace parallax::models {

std::string_view to_string(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::all_reduce: return "all_reduce";
    case CollectiveOp::all_gather: return "all_gather";
    case CollectiveOp::reduce_scatter: return "reduce_scatter";
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

int64_t ring_steps(CollectiveOp op, int64_t ranks) {
  if (ranks < 1) throw std::invalid_argument(fmt::format("ring_steps: ranks = {} < 1", ranks));
  return op == CollectiveOp::all_reduce ? 2 * (ranks - 1) : ranks - 1;
}

double bus_bandwidth_factor(CollectiveOp op, int64_t ranks) {
  if (ranks < 1) {
    throw std::invalid_argument(fmt::format("bus_bandwidth_factor: ranks = {} < 1", ranks));
  }
  const double p = static_cast<double>(ranks);
  return op == CollectiveOp::all_reduce ? 2.0 * (p - 1.0) / p : (p - 1.0) / p;
}

double algorithm_bandwidth_Bps(double bytes, double time_s) {
  if (time_s <= 0) throw std::invalid_argument("algorithm_bandwidth_Bps: time_s must be > 0");
  return bytes / time_s;
}

double bus_bandwidth_Bps(CollectiveOp op, int64_t ranks, double bytes, double time_s) {
  return algorithm_bandwidth_Bps(bytes, time_s) * bus_bandwidth_factor(op, ranks);
}

}  // namespace parallax::models

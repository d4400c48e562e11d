// File: sim/platform/fabric_bench.h
// The cluster benchmark (`parallax bench fabric`): one collective over every GPU of `nodes`
// copies of a box joined by its fabric, on SimPlatform, timed from building the platform to the
// last copy; and the cost of routing there (routes between random GPU pairs, nothing tabled per
// pair). Peak RSS is the process's (getrusage), so points run from small to large report the
// peak up to and including themselves.
#pragma once

#include <cstdint>

#include "sim/platform/hardware_spec.h"
#include "sim/platform/platform.h"

namespace parallax {

struct FabricBenchResult {
  int gpus = 0;
  double simulated_s = 0;   // the collective's time in the simulation
  double build_s = 0;       // building the platform (topology, constraints)
  double run_s = 0;         // simulating the collective (wall)
  double cpu_s = 0;         // build + run, CPU of this process
  uint64_t copies = 0;      // copies the schedule issued
  double peak_rss_mib = 0;  // process peak so far
};

// `box` with fabric.nics; fabric.nodes is overridden by `nodes`.
FabricBenchResult run_fabric_collective(HardwareSpec box, int nodes, CollectiveOp op, CollectiveAlgo algo, Bytes bytes);

struct RouteBenchResult {
  uint64_t routes = 0;
  double seconds = 0;       // wall time of the routes alone
  double cpu_s = 0;         // their CPU time (what a loaded machine does not inflate)
  double ns_per_route = 0;  // CPU per route
  uint64_t directions = 0;  // summed over the routes (and a checksum that they were computed)
  double build_s = 0;       // building the Topology
};

// `routes` routes between GPU pairs drawn from a fixed-seed generator, on a Topology of `nodes`.
RouteBenchResult run_fabric_routes(HardwareSpec box, int nodes, uint64_t routes);

double peak_rss_mib();

}  // namespace parallax

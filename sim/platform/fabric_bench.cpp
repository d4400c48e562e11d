// File: sim/platform/fabric_bench.cpp
#include "sim/platform/fabric_bench.h"

#include <sys/resource.h>

#include <chrono>
#include <numeric>
#include <random>
#include <vector>

#include "sim/engine/engine.h"
#include "sim/platform/sim_platform.h"
#include "sim/platform/topology.h"

namespace parallax {

namespace {

double process_cpu_s() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

double wall_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Finished final : CompletionListener {
  Engine* engine = nullptr;
  Time at;
  void on_complete(uint64_t) override { at = engine->now(); }
};

}  // namespace

double peak_rss_mib() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // kilobytes on Linux
}

FabricBenchResult run_fabric_collective(HardwareSpec box, int nodes, CollectiveOp op, CollectiveAlgo algo, Bytes bytes) {
  box.fabric.nodes = nodes;
  FabricBenchResult r;
  const double cpu0 = process_cpu_s();
  const auto t0 = std::chrono::steady_clock::now();
  Engine engine;
  SimPlatform platform(engine, box);
  r.build_s = wall_since(t0);
  r.gpus = platform.gpu_count();
  std::vector<GpuId> group(static_cast<size_t>(r.gpus));
  std::iota(group.begin(), group.end(), 0);
  Finished done;
  done.engine = &engine;
  const auto t1 = std::chrono::steady_clock::now();
  platform.collective(op, group, bytes, algo, done, 0);
  engine.run();
  r.run_s = wall_since(t1);
  r.cpu_s = process_cpu_s() - cpu0;
  r.simulated_s = done.at.to_seconds();
  r.copies = platform.finished(ActivityKind::copy);
  r.peak_rss_mib = peak_rss_mib();
  return r;
}

RouteBenchResult run_fabric_routes(HardwareSpec box, int nodes, uint64_t routes) {
  box.fabric.nodes = nodes;
  RouteBenchResult r;
  const auto t0 = std::chrono::steady_clock::now();
  Topology topology(box);
  r.build_s = wall_since(t0);
  const int gpus = cluster_gpu_count(box);
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<int> pick(0, gpus - 1);
  const auto t1 = std::chrono::steady_clock::now();
  const double cpu1 = process_cpu_s();
  for (uint64_t i = 0; i < routes; ++i) {
    const int a = pick(rng);
    int b = pick(rng);
    if (b == a) b = (a + 1) % gpus;
    r.directions += topology.route(topology.gpu_node(a), topology.gpu_node(b)).directions.size();
  }
  r.seconds = wall_since(t1);
  r.cpu_s = process_cpu_s() - cpu1;
  r.routes = routes;
  r.ns_per_route = routes > 0 ? 1e9 * r.cpu_s / static_cast<double>(routes) : 0;
  return r;
}

}  // namespace parallax

// File: tests/property/random_machine.cpp
#include "tests/property/random_machine.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "sim/platform/anchor_topologies.h"

namespace parallax::property {

namespace {

int uniform_count(RandomStream& rng, int lo, int hi) {  // [lo, hi]
  return lo + static_cast<int>(rng.uniform_int(static_cast<uint64_t>(hi - lo + 1)));
}
double log_uniform(RandomStream& rng, double lo, double hi) {
  return std::exp(rng.uniform(std::log(lo), std::log(hi)));
}
double link_Bps(RandomStream& rng) { return log_uniform(rng, 1e9, 1e12); }
// Zero latency is drawn on purpose now and then: it is a boundary of the latency lanes.
double link_latency_s(RandomStream& rng) { return rng.uniform01() < 0.2 ? 0.0 : log_uniform(rng, 1e-8, 1e-5); }

GpuSpec random_gpu(RandomStream& rng) {
  GpuSpec g;
  g.model = "property-gpu";
  g.sms = uniform_count(rng, 1, 132);
  g.peak_flops = log_uniform(rng, 1e12, 1e15);
  g.hbm_Bps = log_uniform(rng, 1e11, 5e12);
  g.memory_bytes = int64_t{1} << 36;
  g.copy_engines = uniform_count(rng, 1, 4);
  g.copy_engine_Bps = rng.uniform01() < 0.5 ? 0.0 : link_Bps(rng);
  return g;
}

HardwareSpec random_graph(RandomStream& rng) {
  HardwareSpec s;
  s.name = "property-random-graph";
  const int gpus = uniform_count(rng, 2, 12);
  const int switches = uniform_count(rng, 1, 5);
  for (int i = 0; i < gpus; ++i) s.gpus.push_back(random_gpu(rng));
  std::set<std::pair<std::string, std::string>> joined;  // one link per node pair
  auto add_link = [&](const std::string& a, const std::string& b, LinkKind kind) {
    if (a == b || !joined.insert(std::minmax(a, b)).second) return;
    s.links.push_back({a, b, kind, link_Bps(rng), link_latency_s(rng), rng.uniform01() < 0.8});
  };
  auto sw = [](int i) { return "sw" + std::to_string(i); };
  for (int i = 0; i < switches; ++i) {
    s.switches.push_back({sw(i), i % 2 ? NodeKind::pcie_switch : NodeKind::network_switch});
    if (i > 0) add_link(sw(i), sw(static_cast<int>(rng.uniform_int(static_cast<uint64_t>(i)))), LinkKind::network);
  }
  for (int extra = uniform_count(rng, 0, 2); extra > 0; --extra)  // cycles: routes have choices
    add_link(sw(uniform_count(rng, 0, switches - 1)), sw(uniform_count(rng, 0, switches - 1)), LinkKind::network);
  for (int i = 0; i < gpus; ++i) {
    add_link(gpu_node_name(i), sw(uniform_count(rng, 0, switches - 1)), LinkKind::pcie);
    if (rng.uniform01() < 0.3)
      add_link(gpu_node_name(i), gpu_node_name(uniform_count(rng, 0, gpus - 1)), LinkKind::nvlink);
  }
  if (rng.uniform01() < 0.7) {
    s.hosts.push_back({int64_t{1} << 40});
    add_link(host_node_name(0), sw(uniform_count(rng, 0, switches - 1)), LinkKind::pcie);
  }
  return s;
}

}  // namespace

std::string to_string(MachineShape shape) {
  switch (shape) {
    case MachineShape::crossbar: return "crossbar";
    case MachineShape::pairs_and_switches: return "pairs_and_switches";
    case MachineShape::leaf_spine: return "leaf_spine";
    case MachineShape::random_graph: return "random_graph";
  }
  return "?";
}

HardwareSpec random_machine(MachineShape shape, RandomStream& rng) {
  switch (shape) {
    case MachineShape::crossbar:
      return anchor_crossbar(uniform_count(rng, 2, 16), link_Bps(rng), link_latency_s(rng));
    case MachineShape::pairs_and_switches:
      return anchor_hybrid(4 * uniform_count(rng, 1, 4), rng.uniform01() < 0.5);
    case MachineShape::leaf_spine:
      return anchor_leaf_spine();
    case MachineShape::random_graph:
      return random_graph(rng);
  }
  return {};
}

}  // namespace parallax::property

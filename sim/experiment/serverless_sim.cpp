// File: sim/experiment/serverless_sim.cpp
#include "sim/experiment/serverless_sim.h"

#include <fmt/format.h>

#include <memory>
#include <stdexcept>

#include "sim/engine/engine.h"
#include "sim/engine/random_streams.h"
#include "sim/platform/sim_platform.h"
#include "sim/policies/serverless/node_links.h"

namespace parallax {

ServerlessSummary simulate_serverless(const ServerlessSimSetup& setup, std::span<const ServerlessArrival> arrivals,
                                      ArrivalFeed* feed, ServerlessSimStats* stats,
                                      const std::function<void(std::span<const ServerlessNode* const>)>& inspect) {
  if (setup.nodes < 1) throw std::invalid_argument("simulate_serverless: no nodes");
  Engine engine;
  RandomStreams streams(setup.seed);
  std::vector<std::unique_ptr<SimPlatform>> platforms;
  std::vector<std::unique_ptr<ServerlessNode>> nodes;
  std::vector<ServerlessNode*> raw;
  for (int n = 0; n < setup.nodes; ++n) {
    platforms.push_back(std::make_unique<SimPlatform>(engine, setup.hardware));
    // Node 0 keeps the single-node stream name, so one node gives the results it always gave.
    RandomStream& select = streams.stream(n == 0 ? std::string("serverless.gpu_select") : fmt::format("serverless.gpu_select.{}", n));
    nodes.push_back(std::make_unique<ServerlessNode>(*platforms.back(), setup.policy, setup.models, setup.functions,
                                                     node_links(*platforms.back()), select));
    raw.push_back(nodes.back().get());
  }
  VectorArrivalFeed vector_feed(arrivals);
  std::unique_ptr<ServerlessCluster> cluster;
  if (setup.nodes == 1 && !arrivals.empty()) {
    nodes.front()->start(arrivals);
  } else {
    cluster = std::make_unique<ServerlessCluster>(*platforms.front(), raw, static_cast<uint64_t>(platforms.front()->gpu_count()));
    cluster->start(arrivals.empty() ? *feed : vector_feed);
  }
  if (setup.drive)
    setup.drive(engine);
  else
    engine.run();
  if (stats) stats->events = engine.events_processed();
  std::vector<const ServerlessNode*> view(raw.begin(), raw.end());
  ServerlessSummary s = summarise_serverless(view);
  for (const ServerlessNode* node : view)
    for (int g = 0; g < platforms.front()->gpu_count(); ++g) s.gpu_busy_s += node->busy_s(g);
  // docs/serverless.md: bytes moved / (makespan x capacity); PCIe capacity = the host's outgoing
  // link directions, NVLink capacity = every GPU->GPU NVLink direction, times the nodes.
  SimPlatform& platform = *platforms.front();
  const NodeLinks links = node_links(platform);
  double nvlink_Bps = 0;
  for (const auto& row : links.peer_Bps)
    for (double bw : row) nvlink_Bps += bw;
  double pcie_Bps = 0;
  Topology& topo = platform.topology();
  for (const Topology::LinkDirection& d : topo.directions())
    if (d.kind == LinkKind::pcie && d.from == topo.host_node(0)) pcie_Bps += d.bandwidth_Bps;
  nvlink_Bps *= setup.nodes;
  pcie_Bps *= setup.nodes;
  if (s.makespan_s > 0 && pcie_Bps > 0) s.pcie_utilisation = s.pcie_bytes / (s.makespan_s * pcie_Bps);
  if (s.makespan_s > 0 && nvlink_Bps > 0) s.nvlink_utilisation = s.nvlink_bytes / (s.makespan_s * nvlink_Bps);
  if (s.arrived != s.finished + s.dropped + s.queued) throw std::logic_error("serverless run lost requests");
  if (inspect) inspect(view);
  return s;
}

}  // namespace parallax

// File: sim/predict/nccl_fabric.cpp
// HardwareSpec → models::NcclBox (nccl_fabric.h).
#include "sim/predict/nccl_fabric.h"

#include <algorithm>

#include "sim/engine/engine.h"
#include "sim/platform/sim_platform.h"
#include "sim/policies/overlap/ring_hops.h"

namespace parallax {
namespace {

bool has_nvswitch(const HardwareSpec& hw) {
  return std::any_of(hw.switches.begin(), hw.switches.end(), [](const NodeSpec& n) { return n.kind == NodeKind::nvswitch; });
}

// Switches one inter-node hop crosses: its leaf (or rail) switch, or leaf, spine, leaf.
int switches_crossed(const FabricSpec& f) {
  const bool spine = f.shape == FabricSpec::Shape::leaf_spine && f.nodes_per_leaf > 0 && f.nodes > f.nodes_per_leaf;
  return spine ? 3 : 1;
}

}  // namespace

models::NcclBox nccl_box(const HardwareSpec& hw, const models::RingParams& ring) {
  models::NcclBox box;
  box.generation = models::gpu_generation(hw.gpus.empty() ? std::string{} : hw.gpus.front().model);
  box.link_Bps = ring.bottleneck_Bps();
  // The slowest link kind on the ring sets NCCL's per-hop latencies.
  for (const models::Hop& h : ring.hops)
    if (h.link == models::LinkType::pcie) box.link = models::LinkType::pcie;
  box.nvls = box.generation == models::GpuGeneration::hopper && box.link == models::LinkType::nvlink && has_nvswitch(hw);
  const FabricSpec& f = hw.fabric;
  if (f.nodes <= 1) return box;
  box.net.nodes = f.nodes;
  box.net.gpus_per_node = static_cast<int>(hw.gpus.size());
  box.net.nics_per_node = static_cast<int>(f.nics.size());
  if (!f.nics.empty())
    box.net.nic_Bps = std::min_element(f.nics.begin(), f.nics.end(), [](const NicSpec& a, const NicSpec& b) {
                        return a.bandwidth_Bps < b.bandwidth_Bps;
                      })->bandwidth_Bps;
  if (f.shape == FabricSpec::Shape::leaf_spine) {
    box.net.nodes_per_leaf = f.nodes_per_leaf;
    box.net.oversubscription = f.oversubscription;
  }
  box.net.hop_latency_s = (switches_crossed(f) - 1) * f.switch_latency_s;
  return box;
}

models::NcclBox with_calibrated_network(models::NcclBox box, const models::NetworkCalibration& network) {
  box.net.nics_per_node = network.nics_per_node;
  box.net.nic_Bps = network.nic_Bps;
  box.net.hop_latency_s = network.hop_latency_s;
  return box;
}

models::RingParams box_ring(const HardwareSpec& hw, const std::vector<int>& order) {
  Engine routes_engine;  // the ring is asked of the machine's paths
  SimPlatform machine(routes_engine, hw);
  return ring_hops(machine, order);
}

}  // namespace parallax

// File: sim/scenario/fabric_reader.cpp
#include "sim/scenario/fabric_reader.h"

#include <algorithm>

#include <fmt/format.h>

#include "sim/scenario/config_fields.h"
#include "sim/scenario/hardware_reader.h"
#include "sim/scenario/input_limits.h"
#include "sim/scenario/node_directory.h"

namespace parallax {

namespace {

constexpr NumberRange kOversubscriptionRange{1, 1024, false, "leaf downlink : uplink is 1 (non-blocking) to 1024"};

// The node GPU `gpu` reaches over its first PCIe link that does not end at a GPU: its PCIe switch
// (or the host when the GPU hangs off the root complex directly). Empty if it has none.
std::string pcie_neighbour(const HardwareSpec& box, int gpu) {
  const std::string me = gpu_node_name(gpu);
  for (const LinkSpec& l : box.links) {
    if (l.kind != LinkKind::pcie || (l.a != me && l.b != me)) continue;
    const std::string& other = l.a == me ? l.b : l.a;
    if (!numbered_name(other, "gpu")) return other;
  }
  return {};
}

std::vector<NicSpec> read_nics(const ConfigNode& node, const std::string& path, const HardwareSpec& box) {
  const MapFields f(node, path, {"count", "GBps", "latency_us", "attach"});
  const int gpus = static_cast<int>(box.gpus.size());
  const int count = static_cast<int>(read_integer_in(f.required("count"), f.path_of("count"), 1, 64));
  NicSpec nic;
  nic.bandwidth_Bps = read_number_in(f.required("GBps"), f.path_of("GBps"), kBandwidthGBpsRange) * 1e9;
  if (const ConfigNode* n = f.optional("latency_us"))
    nic.latency_s = read_number_in(*n, f.path_of("latency_us"), kDelaySecondsRange, 1e-6);
  std::vector<NicSpec> nics(static_cast<size_t>(count), nic);
  const ConfigNode* attach = f.optional("attach");
  if (attach == nullptr || (attach->kind == ConfigNode::Kind::scalar && attach->scalar == "gpus")) {
    // NIC k behind the PCIe switch of GPU floor(k * gpus / count): GPU k with one NIC per GPU, the
    // first GPU that uses it with fewer NICs (hardware_spec.h nic_of_gpu), spread evenly with more.
    for (int k = 0; k < count; ++k) {
      const int gpu = static_cast<int>(int64_t{k} * gpus / count);
      const std::string where = pcie_neighbour(box, gpu);
      if (where.empty())
        fail_at(attach ? *attach : node, f.path_of("attach"),
                fmt::format("'{}': NIC {} has no GPU with a PCIe link to sit beside (list the nodes instead)",
                            f.path_of("attach"), k));
      nics[static_cast<size_t>(k)].attach = where;
    }
    return nics;
  }
  if (attach->kind != ConfigNode::Kind::sequence)
    fail_at(*attach, f.path_of("attach"), fmt::format("'{}' must be 'gpus' or a list of node names", f.path_of("attach")));
  if (static_cast<int>(attach->items.size()) != count)
    fail_at(*attach, f.path_of("attach"),
            fmt::format("'{}' lists {} nodes for {} NICs", f.path_of("attach"), attach->items.size(), count));
  const NodeDirectory nodes(box);
  for (size_t k = 0; k < attach->items.size(); ++k) {
    const std::string item = join_path(f.path_of("attach"), k);
    const std::string written = read_string(attach->items[k], item);
    const auto canonical = nodes.resolve(written);
    if (!canonical) fail_at(attach->items[k], item, fmt::format("'{}' names unknown node '{}' (nodes: {})", item, written, nodes.summary()));
    if (numbered_name(*canonical, "gpu"))
      fail_at(attach->items[k], item, fmt::format("'{}': a NIC cannot hang off GPU '{}' (GPUs do not forward; name its PCIe switch)", item, written));
    nics[k].attach = *canonical;
  }
  return nics;
}

}  // namespace

FabricSpec read_fabric(const ConfigNode& node, const std::string& path, const HardwareSpec& box) {
  const MapFields f(node, path, {"shape", "nics", "nodes_per_leaf", "oversubscription", "switch_latency_us", "sources"});
  FabricSpec fabric;
  if (const ConfigNode* n = f.optional("shape"))
    fabric.shape = read_choice(*n, f.path_of("shape"), {"rail_optimized", "leaf_spine"}) == "leaf_spine"
                       ? FabricSpec::Shape::leaf_spine
                       : FabricSpec::Shape::rail_optimized;
  fabric.nics = read_nics(f.required("nics"), f.path_of("nics"), box);
  if (const ConfigNode* n = f.optional("nodes_per_leaf"))
    fabric.nodes_per_leaf = static_cast<int>(read_integer_in(*n, f.path_of("nodes_per_leaf"), 0, kMaxNodes));
  if (const ConfigNode* n = f.optional("oversubscription"))
    fabric.oversubscription = read_number_in(*n, f.path_of("oversubscription"), kOversubscriptionRange);
  if (const ConfigNode* n = f.optional("switch_latency_us"))
    fabric.switch_latency_s = read_number_in(*n, f.path_of("switch_latency_us"), kDelaySecondsRange, 1e-6);
  if (const ConfigNode* n = f.optional("sources")) fabric.sources = read_string_list(*n, f.path_of("sources"));
  return fabric;
}

int read_cluster_nodes(const ConfigNode& node, const std::string& path, const HardwareSpec& box) {
  const int limit = std::max(1, std::min(kMaxNodes, kMaxGpus / std::max<int>(1, static_cast<int>(box.gpus.size()))));
  const int nodes = static_cast<int>(read_integer_in(node, path, 1, limit));
  if (nodes > 1 && box.fabric.nics.empty())
    fail_at(node, path, fmt::format("'{}' is {} but the hardware has no fabric (add 'fabric' with its nics, "
                                    "or use a preset that has one: dgx-a100, dgx-h100)", path, nodes));
  return nodes;
}

}  // namespace parallax

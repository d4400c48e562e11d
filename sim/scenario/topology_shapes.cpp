// File: sim/scenario/topology_shapes.cpp
#include "sim/scenario/topology_shapes.h"

#include <array>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/scenario/config_fields.h"
#include "sim/io/did_you_mean.h"
#include "sim/scenario/link_figures.h"
#include "sim/scenario/node_directory.h"

namespace parallax {

namespace {

int gpu_count(const HardwareSpec& spec) { return static_cast<int>(spec.gpus.size()); }

void add_switch(HardwareSpec& spec, std::string name, NodeKind kind) {
  spec.switches.push_back(NodeSpec{std::move(name), kind});
}

std::string numbered(std::string_view prefix, int i) { return fmt::format("{}{}", prefix, i); }

int read_group_size(const MapFields& fields, std::string_view key) {
  return static_cast<int>(read_integer_in(fields.required(key), fields.path_of(key), 1, 1 << 20));
}

// GPUs 0..n-1 in groups of `per_switch` on switches prefix0.., each GPU link with `gpu_link`.
int attach_gpus_to_switches(HardwareSpec& spec, int per_switch, std::string_view prefix, NodeKind kind,
                            const LinkFigures& gpu_link) {
  const int switches = (gpu_count(spec) + per_switch - 1) / per_switch;
  for (int s = 0; s < switches; ++s) add_switch(spec, numbered(prefix, s), kind);
  for (int g = 0; g < gpu_count(spec); ++g)
    spec.links.push_back(make_link(gpu_node_name(g), numbered(prefix, g / per_switch), gpu_link));
  return switches;
}

// crossbar: switch_name (default nvswitch), link {kind, GBps, latency_us, duplex} per GPU;
// optional host_link per GPU, to host0 directly or through pcie_switches {gpus_per_switch, uplink}.
void expand_crossbar(const MapFields& fields, HardwareSpec& spec) {
  std::string switch_name = "nvswitch";
  if (const ConfigNode* n = fields.optional("switch_name")) {
    switch_name = read_string(*n, fields.path_of("switch_name"));
    if (!is_valid_switch_name(switch_name))
      fail_at(*n, fields.path_of("switch_name"),
              fmt::format("'{}': '{}' cannot name a switch (empty, spaces, or a GPU/host name)",
                          fields.path_of("switch_name"), switch_name));
  }
  add_switch(spec, switch_name, NodeKind::nvswitch);
  const LinkFigures link = read_link_figures(fields.required("link"), fields.path_of("link"), LinkKind::nvlink, true);
  for (int g = 0; g < gpu_count(spec); ++g) spec.links.push_back(make_link(gpu_node_name(g), switch_name, link));

  const ConfigNode* host_link_node = fields.optional("host_link");
  const ConfigNode* pcie_switches = fields.optional("pcie_switches");
  if (host_link_node == nullptr) {
    if (pcie_switches != nullptr)
      fail_at(*pcie_switches, fields.path_of("pcie_switches"),
              fmt::format("'{}' needs '{}'", fields.path_of("pcie_switches"), fields.path_of("host_link")));
    return;
  }
  const LinkFigures host_link = read_link_figures(*host_link_node, fields.path_of("host_link"), LinkKind::pcie, true);
  if (pcie_switches == nullptr) {
    if (!spec.hosts.empty()) for (int g = 0; g < gpu_count(spec); ++g) spec.links.push_back(make_link(gpu_node_name(g), host_node_name(0), host_link));
    return;
  }
  const MapFields sw(*pcie_switches, fields.path_of("pcie_switches"), {"gpus_per_switch", "uplink"});
  const int per_switch = read_group_size(sw, "gpus_per_switch");
  LinkFigures uplink = read_link_figures(sw.required("uplink"), sw.path_of("uplink"), LinkKind::pcie, false);
  const int n = attach_gpus_to_switches(spec, per_switch, "pcie_sw", NodeKind::pcie_switch, host_link);
  if (!spec.hosts.empty()) for (int s = 0; s < n; ++s) spec.links.push_back(make_link(numbered("pcie_sw", s), host_node_name(0), uplink));
}

// nvlink_pairs: nvlink {GBps, latency_us, duplex} joins 2k and 2k+1 (an odd last GPU stays
// unbridged); pcie {GBps, latency_us, duplex} per GPU, to host0 directly or, with
// gpus_per_pcie_switch, to PCIe switches that reach the host by switch_interconnect: host
// (each switch to host0 with uplink) or direct (a chain of uplinks, host0 on pcie_sw0).
void expand_nvlink_pairs(const MapFields& fields, HardwareSpec& spec) {
  const LinkFigures nvlink = read_link_figures(fields.required("nvlink"), fields.path_of("nvlink"), LinkKind::nvlink, false);
  for (int g = 0; g + 1 < gpu_count(spec); g += 2)
    spec.links.push_back(make_link(gpu_node_name(g), gpu_node_name(g + 1), nvlink));
  const LinkFigures pcie = read_link_figures(fields.required("pcie"), fields.path_of("pcie"), LinkKind::pcie, false);

  const ConfigNode* per_switch_node = fields.optional("gpus_per_pcie_switch");
  if (per_switch_node == nullptr) {
    for (const char* key : {"switch_interconnect", "uplink"})
      if (const ConfigNode* n = fields.optional(key))
        fail_at(*n, fields.path_of(key),
                fmt::format("'{}' needs '{}'", fields.path_of(key), fields.path_of("gpus_per_pcie_switch")));
    if (!spec.hosts.empty()) for (int g = 0; g < gpu_count(spec); ++g) spec.links.push_back(make_link(gpu_node_name(g), host_node_name(0), pcie));
    return;
  }
  const int per_switch = read_group_size(fields, "gpus_per_pcie_switch");
  std::string interconnect = "host";
  if (const ConfigNode* n = fields.optional("switch_interconnect"))
    interconnect = read_choice(*n, fields.path_of("switch_interconnect"), {"host", "direct"});
  const LinkFigures uplink = read_link_figures(fields.required("uplink"), fields.path_of("uplink"), LinkKind::pcie, false);
  const int n = attach_gpus_to_switches(spec, per_switch, "pcie_sw", NodeKind::pcie_switch, pcie);
  if (interconnect == "host") {
    if (!spec.hosts.empty()) for (int s = 0; s < n; ++s) spec.links.push_back(make_link(numbered("pcie_sw", s), host_node_name(0), uplink));
  } else {
    for (int s = 0; s + 1 < n; ++s)
      spec.links.push_back(make_link(numbered("pcie_sw", s), numbered("pcie_sw", s + 1), uplink));
    if (!spec.hosts.empty()) spec.links.push_back(make_link(numbered("pcie_sw", 0), host_node_name(0), uplink));
  }
}

// leaf_spine: gpus_per_leaf GPUs on each leaf<k> (host_link), each leaf on `spine` (uplink),
// host0 on the spine (uplink figures). All links are kind network, all switches network_switch.
void expand_leaf_spine(const MapFields& fields, HardwareSpec& spec) {
  const int per_leaf = read_group_size(fields, "gpus_per_leaf");
  const LinkFigures host_link =
      read_link_figures(fields.required("host_link"), fields.path_of("host_link"), LinkKind::network, false);
  const LinkFigures uplink = read_link_figures(fields.required("uplink"), fields.path_of("uplink"), LinkKind::network, false);
  const int leaves = attach_gpus_to_switches(spec, per_leaf, "leaf", NodeKind::network_switch, host_link);
  add_switch(spec, "spine", NodeKind::network_switch);
  for (int l = 0; l < leaves; ++l) spec.links.push_back(make_link(numbered("leaf", l), "spine", uplink));
  if (!spec.hosts.empty()) spec.links.push_back(make_link(host_node_name(0), "spine", uplink));
}

void expand_none(const MapFields&, HardwareSpec&) {}

struct Shape {
  std::string_view name;
  std::span<const std::string_view> keys;
  void (*expand)(const MapFields&, HardwareSpec&);
};

constexpr std::array<std::string_view, 5> kCrossbarKeys{"shape", "switch_name", "link", "host_link", "pcie_switches"};
constexpr std::array<std::string_view, 6> kNvlinkPairsKeys{"shape",  "nvlink", "pcie", "gpus_per_pcie_switch",
                                                           "switch_interconnect", "uplink"};
constexpr std::array<std::string_view, 4> kLeafSpineKeys{"shape", "gpus_per_leaf", "host_link", "uplink"};
constexpr std::array<std::string_view, 1> kNoneKeys{"shape"};

// Adding a shape: one function above and one row here (and a section in docs/scenarios.md).
constexpr std::array<Shape, 4> kShapes{{
    {"crossbar", kCrossbarKeys, expand_crossbar},
    {"nvlink_pairs", kNvlinkPairsKeys, expand_nvlink_pairs},
    {"leaf_spine", kLeafSpineKeys, expand_leaf_spine},
    {"none", kNoneKeys, expand_none},
}};

}  // namespace

std::span<const std::string_view> topology_shape_names() {
  static const std::array<std::string_view, kShapes.size()> names = [] {
    std::array<std::string_view, kShapes.size()> out{};
    for (size_t i = 0; i < kShapes.size(); ++i) out[i] = kShapes[i].name;
    return out;
  }();
  return names;
}

void expand_topology(const ConfigNode& topology, const std::string& path, HardwareSpec& spec) {
  expect_map(topology, path);
  const ConfigEntry* shape_entry = find_entry(topology, "shape");
  if (shape_entry == nullptr) fail_at(topology, join_path(path, "shape"), fmt::format("missing required key '{}'", join_path(path, "shape")));
  const std::string shape_path = join_path(path, "shape");
  const std::string name = read_string(shape_entry->value, shape_path);
  for (const Shape& shape : kShapes) {
    if (shape.name != name) continue;
    shape.expand(MapFields(topology, path, shape.keys), spec);
    return;
  }
  fail_at(shape_entry->value, shape_path,
          fmt::format("unknown topology shape '{}'{}; shapes: {}", name, did_you_mean_suffix(name, topology_shape_names()),
                      fmt::join(topology_shape_names(), ", ")));
}

}  // namespace parallax

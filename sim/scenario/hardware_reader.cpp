// File: sim/scenario/hardware_reader.cpp
#include "sim/scenario/hardware_reader.h"

#include <cmath>
#include <numeric>
#include <unordered_map>

#include <fmt/format.h>

#include "sim/scenario/config_fields.h"
#include "sim/scenario/fabric_reader.h"
#include "sim/scenario/link_figures.h"
#include "sim/scenario/node_directory.h"
#include "sim/scenario/topology_shapes.h"

namespace parallax {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
// Below p = 1 a kernel would take longer than T_comp + T_mem, compute and memory not overlapped
// at all; above 1000 it is the max to 1e-3.
constexpr NumberRange kSmoothingRange{1, 1000, false, "kernel_smoothing_p is 0 (the plain max) or 1 to 1000"};

int64_t gib_to_bytes(double gib) { return static_cast<int64_t>(std::llround(gib * kGiB)); }

GpuSpec read_gpu(const ConfigNode& node, const std::string& path) {
  const MapFields f(node, path,
                    {"model", "sms", "peak_tflops", "hbm_GBps", "memory_GiB", "copy_engines", "copy_engine_GBps",
                     "kernel_launch_us", "bw_per_sm_GBps", "kernel_smoothing_p"});
  GpuSpec gpu;
  if (const ConfigNode* n = f.optional("model")) gpu.model = read_string(*n, f.path_of("model"));
  gpu.sms = static_cast<int>(read_integer_in(f.required("sms"), f.path_of("sms"), 1, 1 << 20));
  gpu.peak_flops = read_number_in(f.required("peak_tflops"), f.path_of("peak_tflops"), kTflopsRange) * 1e12;
  gpu.hbm_Bps = read_number_in(f.required("hbm_GBps"), f.path_of("hbm_GBps"), kBandwidthGBpsRange) * 1e9;
  const double memory_gib = read_positive(f.required("memory_GiB"), f.path_of("memory_GiB"));
  if (memory_gib > 1e9) fail_at(f.required("memory_GiB"), f.path_of("memory_GiB"), "'memory_GiB' is out of range");
  gpu.memory_bytes = gib_to_bytes(memory_gib);
  if (const ConfigNode* n = f.optional("copy_engines"))
    gpu.copy_engines = static_cast<int>(read_integer_in(*n, f.path_of("copy_engines"), 1, 64));
  if (const ConfigNode* n = f.optional("copy_engine_GBps"))  // 0: no engine limit
    gpu.copy_engine_Bps = read_non_negative(*n, f.path_of("copy_engine_GBps")) == 0
                              ? 0
                              : read_number_in(*n, f.path_of("copy_engine_GBps"), kBandwidthGBpsRange) * 1e9;
  if (const ConfigNode* n = f.optional("kernel_launch_us"))
    gpu.kernel_launch_s = read_number_in(*n, f.path_of("kernel_launch_us"), kDelaySecondsRange, 1e-6);
  // Absent: half the SMs saturate HBM [assumption, docs/platform.md "Per-SM bandwidth"].
  gpu.bw_per_sm_Bps = 2 * gpu.hbm_Bps / gpu.sms;
  if (const ConfigNode* n = f.optional("bw_per_sm_GBps"))
    gpu.bw_per_sm_Bps = read_number_in(*n, f.path_of("bw_per_sm_GBps"), kBandwidthGBpsRange) * 1e9;
  // Absent or 0: the plain roofline max (p = ∞).
  if (const ConfigNode* n = f.optional("kernel_smoothing_p"))
    gpu.kernel_smoothing_p = read_non_negative(*n, f.path_of("kernel_smoothing_p")) == 0
                                 ? 0
                                 : read_number_in(*n, f.path_of("kernel_smoothing_p"), kSmoothingRange);
  return gpu;
}

HostSpec read_host(const ConfigNode& node, const std::string& path) {
  const MapFields f(node, path, {"memory_GiB"});
  HostSpec host;
  if (const ConfigNode* n = f.optional("memory_GiB")) {
    const double gib = read_non_negative(*n, f.path_of("memory_GiB"));
    if (gib > 1e9) fail_at(*n, f.path_of("memory_GiB"), fmt::format("'{}' is out of range", f.path_of("memory_GiB")));
    host.memory_bytes = gib_to_bytes(gib);
  }
  return host;
}

// Explicit switches; a name already taken by a shape's switch of the same kind is merged.
void read_switches(const ConfigNode& node, const std::string& path, HardwareSpec& spec) {
  if (node.kind != ConfigNode::Kind::sequence)
    fail_at(node, path, fmt::format("'{}' must be a list, got {}", path, kind_name(node.kind)));
  for (size_t i = 0; i < node.items.size(); ++i) {
    const MapFields f(node.items[i], join_path(path, i), {"name", "kind"});
    const ConfigNode& name_node = f.required("name");
    const std::string name = read_string(name_node, f.path_of("name"));
    if (!is_valid_switch_name(name))
      fail_at(name_node, f.path_of("name"),
              fmt::format("'{}': '{}' cannot name a switch (empty, spaces, or a GPU/host name)", f.path_of("name"), name));
    const NodeKind kind = read_switch_kind(f.required("kind"), f.path_of("kind"));
    bool merged = false;
    for (const NodeSpec& s : spec.switches) {
      if (s.name != name) continue;
      if (s.kind != kind) fail_at(name_node, f.path_of("name"), fmt::format("switch '{}' is defined twice with different kinds", name));
      merged = true;
    }
    if (!merged) spec.switches.push_back(NodeSpec{name, kind});
  }
}

std::string read_endpoint(const MapFields& f, std::string_view key, const NodeDirectory& nodes) {
  const ConfigNode& n = f.required(key);
  const std::string written = read_string(n, f.path_of(key));
  const auto canonical = nodes.resolve(written);
  if (!canonical)
    fail_at(n, f.path_of(key), fmt::format("'{}' names unknown node '{}' (nodes: {})", f.path_of(key), written, nodes.summary()));
  return *canonical;
}

void read_links(const ConfigNode& node, const std::string& path, HardwareSpec& spec) {
  if (node.kind != ConfigNode::Kind::sequence)
    fail_at(node, path, fmt::format("'{}' must be a list, got {}", path, kind_name(node.kind)));
  const NodeDirectory nodes(spec);
  for (size_t i = 0; i < node.items.size(); ++i) {
    const MapFields f(node.items[i], join_path(path, i), {"a", "b", "kind", "GBps", "latency_us", "duplex"});
    std::string a = read_endpoint(f, "a", nodes);
    std::string b = read_endpoint(f, "b", nodes);
    if (a == b) fail_at(f.required("b"), f.path_of("b"), fmt::format("'{}' joins node '{}' to itself", f.path(), a));
    spec.links.push_back(make_link(std::move(a), std::move(b), read_link_figures(f, LinkKind::other)));
  }
}

// Every GPU and host must reach gpu0 over the links.
void check_connected(const ConfigNode& node, const std::string& path, const HardwareSpec& spec) {
  const NodeDirectory nodes(spec);
  std::unordered_map<std::string, size_t> index;
  for (size_t i = 0; i < nodes.names().size(); ++i) index.emplace(nodes.names()[i], i);
  std::vector<size_t> parent(nodes.names().size());
  std::iota(parent.begin(), parent.end(), size_t{0});
  const auto root = [&](size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const LinkSpec& l : spec.links) {
    const auto a = index.find(l.a), b = index.find(l.b);
    if (a == index.end() || b == index.end())
      fail_at(node, path, fmt::format("'{}': a link names unknown node '{}'", path.empty() ? "topology" : path,
                                      a == index.end() ? l.a : l.b));
    parent[root(a->second)] = root(b->second);
  }
  const size_t gpu0 = root(index.at(gpu_node_name(0)));
  const size_t endpoints = spec.gpus.size() + spec.hosts.size();
  for (size_t i = 0; i < endpoints; ++i)
    if (root(i) != gpu0)
      fail_at(node, path, fmt::format("{} is not connected to gpu0: no links reach it (add links or a topology shape)",
                                      nodes.names()[i]));
}

}  // namespace

HardwareSpec read_hardware(const ConfigNode& hardware, const std::string& path) {
  const MapFields f(hardware, path,
                    {"name", "description", "sources", "gpu", "gpus", "hosts", "host", "topology", "switches", "links",
                     "fabric", "nodes"});
  HardwareSpec spec;
  if (const ConfigNode* n = f.optional("name")) spec.name = read_string(*n, f.path_of("name"));
  if (const ConfigNode* n = f.optional("description")) spec.description = read_string(*n, f.path_of("description"));
  if (const ConfigNode* n = f.optional("sources")) spec.sources = read_string_list(*n, f.path_of("sources"));

  const GpuSpec gpu = read_gpu(f.required("gpu"), f.path_of("gpu"));
  const int gpus = static_cast<int>(read_integer_in(f.required("gpus"), f.path_of("gpus"), 1, kMaxGpus));
  spec.gpus.assign(static_cast<size_t>(gpus), gpu);
  int hosts = 1;
  if (const ConfigNode* n = f.optional("hosts")) hosts = static_cast<int>(read_integer_in(*n, f.path_of("hosts"), 0, kMaxHosts));
  HostSpec host;
  if (const ConfigNode* n = f.optional("host")) host = read_host(*n, f.path_of("host"));
  spec.hosts.assign(static_cast<size_t>(hosts), host);

  if (const ConfigNode* n = f.optional("topology")) expand_topology(*n, f.path_of("topology"), spec);
  if (const ConfigNode* n = f.optional("switches")) read_switches(*n, f.path_of("switches"), spec);
  if (const ConfigNode* n = f.optional("links")) read_links(*n, f.path_of("links"), spec);
  check_connected(hardware, path, spec);
  if (const ConfigNode* n = f.optional("fabric")) spec.fabric = read_fabric(*n, f.path_of("fabric"), spec);
  if (const ConfigNode* n = f.optional("nodes")) spec.fabric.nodes = read_cluster_nodes(*n, f.path_of("nodes"), spec);
  return spec;
}

}  // namespace parallax

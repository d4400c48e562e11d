// File: sim/scenario/node_directory.cpp
#include "sim/scenario/node_directory.h"

#include <cctype>
#include <charconv>

#include <fmt/format.h>

namespace parallax {

std::optional<int> numbered_name(std::string_view written, std::string_view prefix) {
  if (written.size() <= prefix.size() || written.substr(0, prefix.size()) != prefix) return std::nullopt;
  const std::string_view digits = written.substr(prefix.size());
  if (digits.size() > 1 && digits[0] == '0') return std::nullopt;
  int index = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
  if (ec != std::errc() || end != digits.data() + digits.size() || index < 0) return std::nullopt;
  return index;
}

bool is_valid_switch_name(std::string_view name) {
  if (name.empty() || name == "host") return false;
  for (char c : name)
    if (std::isspace(static_cast<unsigned char>(c)) != 0) return false;
  return !numbered_name(name, "gpu") && !numbered_name(name, "host");
}

NodeDirectory::NodeDirectory(int gpus, int hosts, const std::vector<NodeSpec>& switches)
    : gpus_(gpus), hosts_(hosts), switches_(switches) {
  for (int i = 0; i < gpus; ++i) names_.push_back(gpu_node_name(i));
  for (int i = 0; i < hosts; ++i) names_.push_back(host_node_name(i));
  for (const NodeSpec& s : switches) names_.push_back(s.name);
}

// A cluster's GPUs and hosts are numbered across its nodes (hardware_spec.h FabricSpec).
NodeDirectory::NodeDirectory(const HardwareSpec& spec)
    : NodeDirectory(cluster_gpu_count(spec), cluster_host_count(spec), spec.switches) {}

std::optional<std::string> NodeDirectory::resolve(std::string_view written) const {
  if (const auto g = numbered_name(written, "gpu")) {
    if (*g < gpus_) return gpu_node_name(*g);
    return std::nullopt;
  }
  if (const auto h = numbered_name(written, "host")) {
    if (*h < hosts_) return host_node_name(*h);
    return std::nullopt;
  }
  if (written == "host") {
    if (hosts_ == 1) return host_node_name(0);
    return std::nullopt;
  }
  for (const NodeSpec& s : switches_)
    if (s.name == written) return s.name;
  return std::nullopt;
}

std::optional<NodeKind> NodeDirectory::kind_of(const std::string& canonical) const {
  if (numbered_name(canonical, "gpu")) return NodeKind::gpu;
  if (numbered_name(canonical, "host")) return NodeKind::host;
  for (const NodeSpec& s : switches_)
    if (s.name == canonical) return s.kind;
  return std::nullopt;
}

std::string NodeDirectory::endpoint_problem(std::string_view written) const {
  const auto canonical = resolve(written);
  if (!canonical) return fmt::format("unknown node '{}' (nodes: {})", written, summary());
  const auto kind = kind_of(*canonical);
  if (kind != NodeKind::gpu && kind != NodeKind::host)
    return fmt::format("'{}' is a switch; transfers run between GPUs and hosts", written);
  return {};
}

std::string NodeDirectory::summary() const {
  std::vector<std::string> parts;
  const auto range = [&](std::string_view prefix, int n) {
    if (n == 1) parts.push_back(fmt::format("{}0", prefix));
    if (n > 1) parts.push_back(fmt::format("{}0..{}{}", prefix, prefix, n - 1));
  };
  range("gpu", gpus_);
  range("host", hosts_);
  for (const NodeSpec& s : switches_) parts.push_back(s.name);
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

}  // namespace parallax

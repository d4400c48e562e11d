// File: sim/scenario/link_figures.cpp
#include "sim/scenario/link_figures.h"

namespace parallax {

namespace {

LinkKind link_kind_from(const std::string& s) {
  if (s == "nvlink") return LinkKind::nvlink;
  if (s == "pcie") return LinkKind::pcie;
  if (s == "network") return LinkKind::network;
  return LinkKind::other;
}

}  // namespace

LinkFigures read_link_figures(const MapFields& fields, LinkKind default_kind) {
  LinkFigures f;
  f.kind = default_kind;
  if (const ConfigNode* kind = fields.optional("kind"))
    f.kind = link_kind_from(read_choice(*kind, fields.path_of("kind"), {"nvlink", "pcie", "network", "other"}));
  f.bandwidth_Bps = read_number_in(fields.required("GBps"), fields.path_of("GBps"), kBandwidthGBpsRange) * 1e9;
  if (const ConfigNode* latency = fields.optional("latency_us"))
    f.latency_s = read_number_in(*latency, fields.path_of("latency_us"), kDelaySecondsRange, 1e-6);
  if (const ConfigNode* duplex = fields.optional("duplex"))
    f.full_duplex = read_choice(*duplex, fields.path_of("duplex"), {"full", "half"}) == "full";
  return f;
}

LinkFigures read_link_figures(const ConfigNode& node, const std::string& path, LinkKind default_kind,
                              bool allow_kind) {
  if (allow_kind) return read_link_figures(MapFields(node, path, {"kind", "GBps", "latency_us", "duplex"}), default_kind);
  return read_link_figures(MapFields(node, path, {"GBps", "latency_us", "duplex"}), default_kind);
}

LinkSpec make_link(std::string a, std::string b, const LinkFigures& figures) {
  LinkSpec link;
  link.a = std::move(a);
  link.b = std::move(b);
  link.kind = figures.kind;
  link.bandwidth_Bps = figures.bandwidth_Bps;
  link.latency_s = figures.latency_s;
  link.full_duplex = figures.full_duplex;
  return link;
}

NodeKind read_switch_kind(const ConfigNode& node, const std::string& path) {
  const std::string s = read_choice(node, path, {"pcie_switch", "nvswitch", "nic", "network_switch"});
  if (s == "pcie_switch") return NodeKind::pcie_switch;
  if (s == "nvswitch") return NodeKind::nvswitch;
  if (s == "nic") return NodeKind::nic;
  return NodeKind::network_switch;
}

}  // namespace parallax

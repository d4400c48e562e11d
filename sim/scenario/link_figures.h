// File: sim/scenario/link_figures.h
// The figures of one link as YAML writes them — {kind, GBps, latency_us, duplex} — read and
// converted to SI units (GBps = 1e9 bytes/s, per direction when full duplex, total when half).
// Shared by explicit `links:` entries and by the topology shapes' link parameters.
#pragma once

#include <string>

#include "sim/platform/hardware_spec.h"
#include "sim/scenario/config_fields.h"

namespace parallax {

struct LinkFigures {
  LinkKind kind = LinkKind::other;
  double bandwidth_Bps = 0;
  double latency_s = 0;
  bool full_duplex = true;
};

// Reads GBps (required, > 0), latency_us (default 0, >= 0), duplex (full | half, default full),
// and kind (nvlink | pcie | network | other) when present; otherwise `default_kind`. The caller
// decides which of these keys are allowed when it builds `fields`.
LinkFigures read_link_figures(const MapFields& fields, LinkKind default_kind);

// Reads a mapping that allows exactly `kind` (when allow_kind), GBps, latency_us and duplex.
LinkFigures read_link_figures(const ConfigNode& node, const std::string& path, LinkKind default_kind,
                              bool allow_kind);

LinkSpec make_link(std::string a, std::string b, const LinkFigures& figures);

NodeKind read_switch_kind(const ConfigNode& node, const std::string& path);

}  // namespace parallax

// File: models/calibration_data/calibration_file.cpp
#include "models/calibration_data/calibration_file.h"

#include <fmt/format.h>

namespace parallax::models {

namespace {

// Scalars are written double-quoted (JSON-style escapes, valid YAML) unless they are plain numbers.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string num(double v) { return fmt::format("{}", v); }

}  // namespace

const CopyCalibration* Calibration::find_copy(const std::string& kind, const std::string& host_memory) const {
  for (const CopyCalibration& c : copy)
    if (c.kind == kind && c.host_memory == host_memory) return &c;
  return nullptr;
}

const CollectiveCalibration* Calibration::find_collective(const std::string& op, int ranks, int nodes) const {
  for (const CollectiveCalibration& c : collectives)
    if (c.op == op && c.ranks == ranks && c.nodes == nodes) return &c;
  return nullptr;
}

const CollectiveCalibration* Calibration::find_network(const std::string& op) const {
  for (const CollectiveCalibration& c : collectives)
    if (c.op == op && c.network) return &c;
  return nullptr;
}

std::string format_calibration_yaml(const Calibration& c) {
  std::string y;
  auto line = [&](const std::string& s) { y += s + "\n"; };
  line("# GPU calibration written by `parallax fit` (docs/calibration.md). Each section was fitted");
  line("# by least squares on the measurement rows it counts; `provenance` says where they came from.");
  line(fmt::format("format: {}", kCalibrationFormat));
  line(fmt::format("gpu: {}", quoted(c.gpu)));
  const CalibrationProvenance& p = c.provenance;
  line("provenance:");
  line(fmt::format("  source: {}", quoted(p.source)));
  line(fmt::format("  rows: {}", p.rows));
  line(fmt::format("  gpu_name: {}", quoted(p.gpu_name)));
  line(fmt::format("  sm_count: {}", p.sm_count));
  line(fmt::format("  driver: {}", quoted(p.driver)));
  line(fmt::format("  cuda: {}", quoted(p.cuda)));
  if (p.sm_clock_mhz) line(fmt::format("  sm_clock_mhz: {}", num(*p.sm_clock_mhz)));
  if (p.mem_clock_mhz) line(fmt::format("  mem_clock_mhz: {}", num(*p.mem_clock_mhz)));
  line(fmt::format("  date: {}", quoted(p.date)));
  line(fmt::format("  git_commit: {}", quoted(p.git_commit)));
  line(fmt::format("  fit_by: {}", quoted(p.fit_by)));
  line(fmt::format("  split: {}", quoted(p.split)));
  if (c.gemm) {
    const GpuComputeParams& g = c.gemm->params;
    line("gemm:");
    line(fmt::format("  sms: {}", g.sms));
    line(fmt::format("  peak_flops: {}", num(g.peak_flops)));
    line(fmt::format("  hbm_Bps: {}", num(g.hbm_Bps)));
    line(fmt::format("  tile_m: {}", g.tile_m));
    line(fmt::format("  tile_n: {}", g.tile_n));
    line(fmt::format("  eta_max: {}", num(g.eta_max)));
    line(fmt::format("  k_half: {}", num(g.k_half)));
    line(fmt::format("  eta_mem: {}", num(g.eta_mem)));
    line(fmt::format("  overhead_s: {}", num(g.overhead_s)));
    line(fmt::format("  rows: {}", c.gemm->rows));
    line(fmt::format("  rms_log_error: {}", num(c.gemm->rms_log_error)));
  }
  if (!c.copy.empty()) {
    line("copy:");
    for (const CopyCalibration& k : c.copy)
      line(fmt::format("  - {{kind: {}, host_memory: {}, latency_s: {}, bandwidth_Bps: {}, rows: {}}}", k.kind,
                       k.host_memory, num(k.latency_s), num(k.bandwidth_Bps), k.rows));
  }
  if (!c.launch.empty()) {
    line("launch:");
    for (const LaunchCalibration& l : c.launch)
      line(fmt::format("  - {{what: {}, seconds: {}, rows: {}}}", l.what, num(l.seconds), l.rows));
  }
  if (c.interference) {
    const InterferenceCoefficients& k = c.interference->coefficients;
    line("interference:");
    line(fmt::format("  l2_self: {}", num(k.l2_self)));
    line(fmt::format("  l2_other: {}", num(k.l2_other)));
    line(fmt::format("  dram_self: {}", num(k.dram_self)));
    line(fmt::format("  dram_other: {}", num(k.dram_other)));
    line(fmt::format("  constant: {}", num(k.constant)));
    line(fmt::format("  rows: {}", c.interference->rows));
  }
  if (!c.interdecom.empty()) {
    line("interdecom:");
    for (const InterDecomCalibration& d : c.interdecom)
      line(fmt::format("  - {{m: {}, n: {}, k: {}, copy_sms: {}, copy_bytes: {}, a_s: {}, b_s: {}, c_s: {}, rows: {}}}",
                       d.m, d.n, d.k, d.copy_sms, num(d.copy_bytes), num(d.a_s), num(d.b_s), num(d.c_s),
                       d.rows));
  }
  if (c.sm_scaling) {
    line("sm_scaling:");
    line(fmt::format("  bw_per_sm_Bps: {}", num(c.sm_scaling->bw_per_sm_Bps)));
    line(fmt::format("  hbm_Bps: {}", num(c.sm_scaling->hbm_Bps)));
    line(fmt::format("  flops_per_sm: {}", num(c.sm_scaling->flops_per_sm)));
    // Only when fitted: files of sweeps without ridge rows stay as they were.
    if (c.sm_scaling->smoothing_p > 0) line(fmt::format("  smoothing_p: {}", num(c.sm_scaling->smoothing_p)));
    line(fmt::format("  rows: {}", c.sm_scaling->rows));
  }
  if (!c.collectives.empty()) {
    line("collectives:");
    for (const CollectiveCalibration& k : c.collectives) {
      line(fmt::format("  - op: {}", k.op));
      line(fmt::format("    ranks: {}", k.ranks));
      // One node is the default the reader assumes: files fitted on one box stay as they were.
      if (k.nodes > 1) line(fmt::format("    nodes: {}", k.nodes));
      line(fmt::format("    link_Bps: {}", num(k.link_Bps)));
      line(fmt::format("    base_latency_s: {}", num(k.base_latency_s)));
      line(fmt::format("    step_latency_s: {}", num(k.step_latency_s)));
      line(fmt::format("    bandwidth_efficiency: {}", num(k.bandwidth_efficiency)));
      if (!k.protocols.empty()) {
        line("    protocols:");
        for (const ProtocolCalibration& p : k.protocols)
          line(fmt::format("      - {{algorithm: {}, protocol: {}, latency_s: {}, busbw_Bps: {}}}", p.algorithm, p.protocol,
                           num(p.latency_s), num(p.busbw_Bps)));
      }
      line(fmt::format("    rows: {}", k.rows));
      line(fmt::format("    median_rel_error: {}", num(k.median_rel_error)));
      line(fmt::format("    p95_rel_error: {}", num(k.p95_rel_error)));
      line(fmt::format("    max_rel_error: {}", num(k.max_rel_error)));
      if (const auto& n = k.network)
        line(fmt::format("    network: {{nics_per_node: {}, nic_Bps: {}, hop_latency_s: {}, median_rel_error: {}, held_out_median: {}}}",
                         n->nics_per_node, num(n->nic_Bps), num(n->hop_latency_s), num(n->median_rel_error),
                         num(n->held_out_median)));
    }
  }
  return y;
}

}  // namespace parallax::models

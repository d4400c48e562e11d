// File: sim/scenario/calibration_reader.cpp
#include "sim/scenario/calibration_reader.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "sim/scenario/config_fields.h"

namespace parallax {

namespace {

using models::Calibration;

int read_count(const ConfigNode& n, const std::string& path) {
  return static_cast<int>(read_integer_in(n, path, 0, 1'000'000'000));
}

std::optional<double> optional_number(const MapFields& f, std::string_view key) {
  if (const ConfigNode* n = f.optional(key)) return read_non_negative(*n, f.path_of(key));
  return std::nullopt;
}

void read_provenance(const ConfigNode& node, models::CalibrationProvenance& p) {
  const MapFields f(node, "provenance",
                    {"source", "rows", "gpu_name", "sm_count", "driver", "cuda", "sm_clock_mhz",
                     "mem_clock_mhz", "date", "git_commit", "fit_by", "split"});
  p.source = read_string(f.required("source"), f.path_of("source"));
  p.rows = read_count(f.required("rows"), f.path_of("rows"));
  auto text = [&](std::string_view key) {
    const ConfigNode* n = f.optional(key);
    return n ? read_string(*n, f.path_of(key)) : std::string();
  };
  p.gpu_name = text("gpu_name");
  if (const ConfigNode* n = f.optional("sm_count")) p.sm_count = read_count(*n, f.path_of("sm_count"));
  p.driver = text("driver");
  p.cuda = text("cuda");
  p.sm_clock_mhz = optional_number(f, "sm_clock_mhz");
  p.mem_clock_mhz = optional_number(f, "mem_clock_mhz");
  p.date = text("date");
  p.git_commit = text("git_commit");
  p.fit_by = text("fit_by");
  p.split = text("split");
}

models::GemmCalibration read_gemm(const ConfigNode& node) {
  const MapFields f(node, "gemm",
                    {"sms", "peak_flops", "hbm_Bps", "tile_m", "tile_n", "eta_max", "k_half", "eta_mem",
                     "overhead_s", "rows", "rms_log_error"});
  models::GemmCalibration g;
  models::GpuComputeParams& p = g.params;
  p.sms = read_integer_in(f.required("sms"), f.path_of("sms"), 1, 100000);
  p.peak_flops = read_positive(f.required("peak_flops"), f.path_of("peak_flops"));
  p.hbm_Bps = read_positive(f.required("hbm_Bps"), f.path_of("hbm_Bps"));
  p.tile_m = read_integer_in(f.required("tile_m"), f.path_of("tile_m"), 1, 4096);
  p.tile_n = read_integer_in(f.required("tile_n"), f.path_of("tile_n"), 1, 4096);
  p.eta_max = read_positive(f.required("eta_max"), f.path_of("eta_max"));
  p.k_half = read_non_negative(f.required("k_half"), f.path_of("k_half"));
  p.eta_mem = read_positive(f.required("eta_mem"), f.path_of("eta_mem"));
  p.overhead_s = read_number_in(f.required("overhead_s"), f.path_of("overhead_s"), kDelaySecondsRange);
  g.rows = read_count(f.required("rows"), f.path_of("rows"));
  if (const ConfigNode* n = f.optional("rms_log_error")) g.rms_log_error = read_non_negative(*n, f.path_of("rms_log_error"));
  return g;
}

template <class Item, class ReadItem>
std::vector<Item> read_list(const ConfigNode& node, const std::string& path, ReadItem read_item) {
  if (node.kind != ConfigNode::Kind::sequence)
    fail_at(node, path, fmt::format("'{}' must be a list, got {}", path, kind_name(node.kind)));
  std::vector<Item> items;
  for (size_t i = 0; i < node.items.size(); ++i) items.push_back(read_item(node.items[i], join_path(path, i)));
  return items;
}

models::CopyCalibration read_copy(const ConfigNode& node, const std::string& path) {
  const MapFields f(node, path, {"kind", "host_memory", "latency_s", "bandwidth_Bps", "rows"});
  models::CopyCalibration c;
  c.kind = read_choice(f.required("kind"), f.path_of("kind"), {"h2d", "d2h", "d2d", "p2p"});
  c.host_memory = read_choice(f.required("host_memory"), f.path_of("host_memory"), {"pinned", "pageable", "none"});
  // They replace link and copy-engine figures: the scenario's ranges (input_limits.h) hold here too.
  c.latency_s = read_number_in(f.required("latency_s"), f.path_of("latency_s"), kDelaySecondsRange);
  c.bandwidth_Bps = read_number_in(f.required("bandwidth_Bps"), f.path_of("bandwidth_Bps"), kBandwidthGBpsRange, 1e-9) * 1e9;
  c.rows = read_count(f.required("rows"), f.path_of("rows"));
  return c;
}

models::LaunchCalibration read_launch(const ConfigNode& node, const std::string& path) {
  const MapFields f(node, path, {"what", "seconds", "rows"});
  models::LaunchCalibration l;
  l.what = read_choice(f.required("what"), f.path_of("what"), {"launch", "sync", "event_record"});
  l.seconds = read_number_in(f.required("seconds"), f.path_of("seconds"), kDelaySecondsRange);  // a kernel launch delay
  l.rows = read_count(f.required("rows"), f.path_of("rows"));
  return l;
}

models::InterferenceCalibration read_interference(const ConfigNode& node) {
  const MapFields f(node, "interference", {"l2_self", "l2_other", "dram_self", "dram_other", "constant", "rows"});
  models::InterferenceCalibration c;
  c.coefficients.l2_self = read_number(f.required("l2_self"), f.path_of("l2_self"));
  c.coefficients.l2_other = read_number(f.required("l2_other"), f.path_of("l2_other"));
  c.coefficients.dram_self = read_number(f.required("dram_self"), f.path_of("dram_self"));
  c.coefficients.dram_other = read_number(f.required("dram_other"), f.path_of("dram_other"));
  c.coefficients.constant = read_number(f.required("constant"), f.path_of("constant"));
  c.rows = read_count(f.required("rows"), f.path_of("rows"));
  return c;
}

models::InterDecomCalibration read_interdecom(const ConfigNode& node, const std::string& path) {
  const MapFields f(node, path, {"m", "n", "k", "copy_sms", "copy_bytes", "a_s", "b_s", "c_s", "rows"});
  models::InterDecomCalibration d;
  d.m = read_integer_in(f.required("m"), f.path_of("m"), 1, int64_t{1} << 40);
  d.n = read_integer_in(f.required("n"), f.path_of("n"), 1, int64_t{1} << 40);
  d.k = read_integer_in(f.required("k"), f.path_of("k"), 1, int64_t{1} << 40);
  d.copy_sms = read_integer_in(f.required("copy_sms"), f.path_of("copy_sms"), 0, 100000);
  d.copy_bytes = read_non_negative(f.required("copy_bytes"), f.path_of("copy_bytes"));
  d.a_s = read_non_negative(f.required("a_s"), f.path_of("a_s"));
  d.b_s = read_number(f.required("b_s"), f.path_of("b_s"));
  d.c_s = read_non_negative(f.required("c_s"), f.path_of("c_s"));
  d.rows = read_count(f.required("rows"), f.path_of("rows"));
  return d;
}

models::SmScalingCalibration read_sm_scaling(const ConfigNode& node) {
  const MapFields f(node, "sm_scaling", {"bw_per_sm_Bps", "hbm_Bps", "flops_per_sm", "smoothing_p", "rows"});
  models::SmScalingCalibration c;
  c.bw_per_sm_Bps = read_positive(f.required("bw_per_sm_Bps"), f.path_of("bw_per_sm_Bps"));
  c.hbm_Bps = read_positive(f.required("hbm_Bps"), f.path_of("hbm_Bps"));
  c.flops_per_sm = read_non_negative(f.required("flops_per_sm"), f.path_of("flops_per_sm"));
  if (const ConfigNode* n = f.optional("smoothing_p")) {
    c.smoothing_p = read_positive(*n, f.path_of("smoothing_p"));
    if (c.smoothing_p < 1) fail_at(*n, f.path_of("smoothing_p"), "'sm_scaling.smoothing_p' is at least 1 (1: compute and memory not overlapped at all)");
  }
  c.rows = read_count(f.required("rows"), f.path_of("rows"));
  return c;
}

models::ProtocolCalibration read_protocol_fit(const ConfigNode& node, const std::string& path) {
  const MapFields f(node, path, {"algorithm", "protocol", "latency_s", "busbw_Bps"});
  models::ProtocolCalibration p;
  p.algorithm = read_choice(f.required("algorithm"), f.path_of("algorithm"), {"ring", "tree", "p2p"});
  p.protocol = read_choice(f.required("protocol"), f.path_of("protocol"), {"LL", "LL128", "Simple"});
  p.latency_s = read_non_negative(f.required("latency_s"), f.path_of("latency_s"));
  p.busbw_Bps = read_positive(f.required("busbw_Bps"), f.path_of("busbw_Bps"));
  return p;
}

models::NetworkCalibration read_network_fit(const ConfigNode& node, const std::string& path) {
  const MapFields f(node, path, {"nics_per_node", "nic_Bps", "hop_latency_s", "median_rel_error", "held_out_median"});
  models::NetworkCalibration n;
  n.nics_per_node = static_cast<int>(read_integer_in(f.required("nics_per_node"), f.path_of("nics_per_node"), 1, 1024));
  n.nic_Bps = read_positive(f.required("nic_Bps"), f.path_of("nic_Bps"));
  n.hop_latency_s = read_non_negative(f.required("hop_latency_s"), f.path_of("hop_latency_s"));
  n.median_rel_error = optional_number(f, "median_rel_error").value_or(0.0);
  n.held_out_median = optional_number(f, "held_out_median").value_or(0.0);
  return n;
}

models::CollectiveCalibration read_collective(const ConfigNode& node, const std::string& path) {
  const MapFields f(node, path,
                    {"op", "ranks", "nodes", "link_Bps", "base_latency_s", "step_latency_s", "bandwidth_efficiency",
                     "protocols", "rows", "median_rel_error", "p95_rel_error", "max_rel_error", "network"});
  models::CollectiveCalibration c;
  c.op = read_choice(f.required("op"), f.path_of("op"),
                     {"all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast", "reduce", "send_recv"});
  if (const ConfigNode* n = f.optional("protocols"))
    c.protocols = read_list<models::ProtocolCalibration>(*n, f.path_of("protocols"), read_protocol_fit);
  c.ranks = static_cast<int>(read_integer_in(f.required("ranks"), f.path_of("ranks"), 2, 1'000'000));
  if (const ConfigNode* n = f.optional("nodes")) c.nodes = static_cast<int>(read_integer_in(*n, f.path_of("nodes"), 1, c.ranks));
  c.link_Bps = read_positive(f.required("link_Bps"), f.path_of("link_Bps"));
  c.base_latency_s = read_non_negative(f.required("base_latency_s"), f.path_of("base_latency_s"));
  c.step_latency_s = read_non_negative(f.required("step_latency_s"), f.path_of("step_latency_s"));
  c.bandwidth_efficiency = read_positive(f.required("bandwidth_efficiency"), f.path_of("bandwidth_efficiency"));
  c.rows = read_count(f.required("rows"), f.path_of("rows"));
  c.median_rel_error = optional_number(f, "median_rel_error").value_or(0.0);
  c.p95_rel_error = optional_number(f, "p95_rel_error").value_or(0.0);
  c.max_rel_error = optional_number(f, "max_rel_error").value_or(0.0);
  if (const ConfigNode* n = f.optional("network")) c.network = read_network_fit(*n, f.path_of("network"));
  return c;
}

}  // namespace

models::Calibration parse_calibration(std::string_view text, const std::string& path) {
  const ConfigNode root = parse_config_tree(text, path);
  const MapFields f(root, "",
                    {"format", "gpu", "provenance", "gemm", "copy", "launch", "interference", "interdecom",
                     "sm_scaling", "collectives"});
  const ConfigNode& format = f.required("format");
  if (read_string(format, "format") != models::kCalibrationFormat)
    fail_at(format, "format", fmt::format("'format' must be {}, got '{}'", models::kCalibrationFormat, format.scalar));
  Calibration c;
  c.gpu = read_string(f.required("gpu"), "gpu");
  read_provenance(f.required("provenance"), c.provenance);
  if (const ConfigNode* n = f.optional("gemm")) c.gemm = read_gemm(*n);
  if (const ConfigNode* n = f.optional("copy")) c.copy = read_list<models::CopyCalibration>(*n, "copy", read_copy);
  if (const ConfigNode* n = f.optional("launch"))
    c.launch = read_list<models::LaunchCalibration>(*n, "launch", read_launch);
  if (const ConfigNode* n = f.optional("interference")) c.interference = read_interference(*n);
  if (const ConfigNode* n = f.optional("interdecom"))
    c.interdecom = read_list<models::InterDecomCalibration>(*n, "interdecom", read_interdecom);
  if (const ConfigNode* n = f.optional("sm_scaling")) c.sm_scaling = read_sm_scaling(*n);
  if (const ConfigNode* n = f.optional("collectives"))
    c.collectives = read_list<models::CollectiveCalibration>(*n, "collectives", read_collective);
  return c;
}

models::Calibration read_calibration(const std::string& path) {
  return parse_calibration(read_input_text(path), path);
}

std::string calibration_path(const std::string& name, const std::string& base_dir) {
  const bool is_path = name.find('/') != std::string::npos || name.ends_with(".yaml") || name.ends_with(".yml");
  if (!is_path) return (std::filesystem::path("results") / "calibration" / (name + ".yaml")).string();
  const std::filesystem::path p(name);
  if (p.is_absolute() || base_dir.empty()) return p.string();
  return (std::filesystem::path(base_dir) / p).string();
}

}  // namespace parallax

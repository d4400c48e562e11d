// File: sim/scenario/calibration_apply.cpp
#include "sim/scenario/calibration_apply.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "sim/scenario/calibration_reader.h"
#include "sim/scenario/config_fields.h"

namespace parallax {

namespace {

bool is_gpu(const std::string& node) { return node.starts_with("gpu"); }
bool is_host(const std::string& node) { return node.starts_with("host"); }

}  // namespace

void apply_calibration(const models::Calibration& c, HardwareSpec& hw) {
  double engine_Bps = 0.0;
  double host_Bps = 0.0, host_latency_sum = 0.0;
  int host_fits = 0;
  const models::CopyCalibration* p2p = c.find_copy("p2p", "none");
  for (const models::CopyCalibration& k : c.copy) {
    if (k.host_memory == "pageable") continue;  // staged through a bounce buffer: not the engine's rate
    engine_Bps = std::max(engine_Bps, k.bandwidth_Bps);
    if ((k.kind == "h2d" || k.kind == "d2h") && k.host_memory == "pinned") {
      host_Bps = std::max(host_Bps, k.bandwidth_Bps);
      host_latency_sum += k.latency_s;
      ++host_fits;
    }
  }
  const models::LaunchCalibration* launch = nullptr;
  for (const models::LaunchCalibration& l : c.launch)
    if (l.what == "launch") launch = &l;
  for (GpuSpec& g : hw.gpus) {
    if (c.gemm) {
      const models::GpuComputeParams& p = c.gemm->params;
      g.gemm = GemmEfficiency{p.tile_m, p.tile_n, p.eta_max, p.k_half, p.eta_mem, p.overhead_s};
    }
    if (launch) g.kernel_launch_s = launch->seconds;
    if (c.sm_scaling) g.bw_per_sm_Bps = c.sm_scaling->bw_per_sm_Bps;
    if (c.sm_scaling && c.sm_scaling->smoothing_p > 0) g.kernel_smoothing_p = c.sm_scaling->smoothing_p;
    if (engine_Bps > 0) g.copy_engine_Bps = engine_Bps;
  }
  for (LinkSpec& l : hw.links) {
    const bool gpu_host = (is_gpu(l.a) && is_host(l.b)) || (is_host(l.a) && is_gpu(l.b));
    const bool gpu_gpu = is_gpu(l.a) && is_gpu(l.b);
    if (gpu_host && host_fits > 0) {
      l.bandwidth_Bps = host_Bps;
      l.latency_s = host_latency_sum / host_fits;
    } else if (gpu_gpu && p2p) {
      l.bandwidth_Bps = p2p->bandwidth_Bps;
      l.latency_s = p2p->latency_s;
    }
  }
}

void apply_scenario_calibration(const ConfigNode& node, const std::string& base_dir, HardwareSpec& hw) {
  const std::string name = read_string(node, "calibration");
  if (name.empty()) fail_at(node, "calibration", "'calibration' must name a GPU or a file");
  const std::string path = calibration_path(name, base_dir);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    fail_at(node, "calibration", fmt::format("calibration file '{}' not found (write it with `parallax fit`)", path));
  const models::Calibration c = read_calibration(path);
  apply_calibration(c, hw);
  hw.sources.push_back(fmt::format("calibration: {} ({}, {} rows from {}, fitted by {})", path, c.gpu,
                                   c.provenance.rows, c.provenance.source, c.provenance.fit_by));
}

}  // namespace parallax

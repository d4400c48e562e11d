// File: sim/scenario/calibration_apply.h
// What a scenario's `calibration: <gpu-or-path>` changes in its machine (docs/calibration.md):
//   gemm    → every GPU's GEMM efficiency curve (tiles, eta_max, k_half, eta_mem, overhead), used
//             by the GEMM cost model (overlap workloads; sim/policies/overlap/overlap_machine.h);
//             the preset's SM count, peak FLOP/s and HBM bandwidth stay
//   launch  → every GPU's kernel_launch_s (the `launch` fit)
//   sm_scaling → every GPU's bw_per_sm_Bps (the per-SM DRAM bandwidth cap the sm_scaling
//             streaming rows give; replaces the presets' 2·HBM/SMs assumption) and, where the
//             sweep had ridge rows, every GPU's kernel_smoothing_p
//   copy    → every GPU's copy_engine_Bps = the largest fitted copy bandwidth (pinned h2d/d2h,
//             p2p): one copy is never faster than measured; links joining a GPU directly to a
//             host take the pinned h2d/d2h fits (bandwidth: the larger, latency: the mean of α);
//             links joining two GPUs directly take the p2p fit. Links through a PCIe switch keep
//             the preset's figures.
// Collective and interdecom fits are not applied to scenarios (predict collective uses the former).
#pragma once

#include <string>

#include "models/calibration_data/calibration_file.h"
#include "sim/platform/hardware_spec.h"
#include "sim/scenario/config_tree.h"

namespace parallax {

void apply_calibration(const models::Calibration& calibration, HardwareSpec& hardware);

// The scenario key: resolves NAME (calibration_reader.h's calibration_path, relative paths
// against `base_dir`), reads the file and applies it, adding a line to hardware.sources. A missing
// file is an InputError at the key; a malformed one, at its own file:line:col.
void apply_scenario_calibration(const ConfigNode& node, const std::string& base_dir, HardwareSpec& hardware);

}  // namespace parallax

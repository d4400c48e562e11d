// File: hw/hw_command.h
// `parallax hw [info | calibrate --out DIR [--quick] [--families a,b] [--device N] [--dry-run]]`:
// the command-line face of the hardware backend (docs/hardware.md). CUDA-free: it plans, prints
// and writes; hw_backend.h does the measuring.
//
// Exit codes: 0 ok; 2 bad input (an unknown family, --out missing); 3 (kNoGpuExitCode) no usable
// GPU ("no CUDA GPU found: <cuda error text>") or a build without the CUDA backend; 1 some cases
// failed (their rows are left out; the others are written).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace parallax::hw {

struct HwOptions {
  std::string action;    // "", "info", "calibrate"
  std::string out_dir;
  bool quick = false;
  std::string families;  // comma-separated; empty = all measured families
  int device = 0;
  bool dry_run = false;  // print the plan and its time estimate, measure nothing (no GPU needed)
};

CLI::App* add_hw_subcommand(CLI::App& app, HwOptions& options);
int hw_command(const HwOptions& options);

}  // namespace parallax::hw

// File: sim/scenario/calibration_reader.h
// Reads a calibration file (models/calibration_data/calibration_file.h; docs/calibration.md)
// strictly: unknown keys (with "did you mean"), missing keys, wrong types and out-of-range values
// throw InputError at file:line:col naming the dotted key. Here rather than in models/ because
// models/ never parses YAML; the located tree of config_tree.h does the work.
#pragma once

#include <string>
#include <string_view>

#include "models/calibration_data/calibration_file.h"

namespace parallax {

models::Calibration parse_calibration(std::string_view text, const std::string& path);
// InputError (line 0) when the file cannot be opened.
models::Calibration read_calibration(const std::string& path);

// What `calibration: NAME` in a scenario, or --calibration NAME, refers to: a path if NAME
// contains '/' or ends in .yaml/.yml (relative to `base_dir` when not absolute), otherwise
// results/calibration/NAME.yaml under the current directory.
std::string calibration_path(const std::string& name, const std::string& base_dir);

}  // namespace parallax

// File: sim/scenario/hardware_presets.h
// The embedded hardware presets (scenarios/hardware/*.yaml) as config trees, for the scenario
// loader to merge a scenario's overrides into before validation. The public entry points
// (load_hardware_preset, hardware_preset_names) are declared in scenario_loader.h.
#pragma once

#include <string>
#include <string_view>

#include "sim/scenario/config_tree.h"

namespace parallax {

// "scenarios/hardware/NAME.yaml"
std::string hardware_preset_path(std::string_view name);

// The parsed preset. An unknown name throws InputError at `where` (the scenario node naming it),
// for key `key`: "unknown hardware preset 'dgx-h10' (did you mean 'dgx-h100'?); presets: ...".
ConfigNode hardware_preset_tree(std::string_view name, const SourceLocation& where, const std::string& key);

}  // namespace parallax

// File: sim/scenario/scenario_loader.h
// The scenario loader's public face: a YAML scenario (file, text or the embedded quickstart) plus
// "--set dotted.path=value" overrides, validated strictly into a typed Scenario; and the hardware
// presets compiled into the binary. Every user error throws InputError ("file:line:col: message"
// naming the dotted key); nothing here prints or exits. Schema: docs/scenarios.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/platform/hardware_spec.h"
#include "sim/io/input_error.h"
#include "sim/scenario/scenario.h"

namespace parallax {

// Overrides are "dotted.path=value" strings (from --set), applied in order to the YAML tree before
// validation; list items are addressed by index ("workload.collectives.0.bytes=64MiB").
// Paths inside the scenario (workload.transfers_csv) resolve relative to the scenario's folder.
Scenario load_scenario_file(const std::string& path, const std::vector<std::string>& overrides = {});

// `source_name` names the text in errors and is the base for relative paths (its folder).
Scenario load_scenario_text(std::string_view yaml, const std::string& source_name,
                            const std::vector<std::string>& overrides = {});

// scenarios/quickstart.yaml, compiled in; load it with source name kQuickstartSource.
std::string_view embedded_quickstart();
inline constexpr std::string_view kQuickstartSource = "<embedded quickstart>";

// A preset from scenarios/hardware/NAME.yaml (embedded). Unknown name -> InputError with
// "did you mean"; errors inside a preset are located at "scenarios/hardware/NAME.yaml".
HardwareSpec load_hardware_preset(std::string_view name);
std::vector<std::string> hardware_preset_names();  // sorted

}  // namespace parallax

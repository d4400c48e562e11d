// File: sim/scenario/embedded_file.h
// Text files compiled into the binary by tools/embed_files.py (a meson custom_target), so that
// presets and the quickstart work from any directory. Paths are relative to the repository root,
// e.g. "scenarios/hardware/dgx-h100.yaml".
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace parallax {

struct EmbeddedFile {
  std::string_view path;
  std::string_view text;
};

// scenarios/quickstart.yaml and scenarios/hardware/*.yaml (generated: embedded_scenarios.cpp).
std::span<const EmbeddedFile> embedded_scenario_files();

// The text of an embedded file by path, or nullopt.
std::optional<std::string_view> find_embedded_scenario_file(std::string_view path);

}  // namespace parallax

// File: sim/scenario/workload_kinds.h
// The `workload.kind` dispatch: each kind has one reader that validates the `workload:` mapping
// and fills its part of the Scenario. Adding a kind = one reader file + one row in the table in
// workload_kinds.cpp (+ its section in docs/scenarios.md).
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "sim/scenario/config_tree.h"
#include "sim/scenario/scenario.h"

namespace parallax {

struct WorkloadContext {
  std::filesystem::path base_dir;  // data files (CSV, traces) resolve relative to this
};

// Reads `workload` (a mapping; `path` = "workload") into `scenario`, whose hardware is already
// resolved. Sets scenario.workload_kind. Unknown kind -> InputError with did-you-mean.
void read_workload(const ConfigNode& workload, const std::string& path, const WorkloadContext& context,
                   Scenario& scenario);

std::span<const std::string_view> workload_kind_names();

// The reader read_workload uses for `kind`; nullptr for an unknown kind. The experiment registry
// (sim/experiment/experiment_registry.cpp) names the same reader in its row; its test checks both.
using WorkloadReader = void (*)(const ConfigNode&, const std::string&, const WorkloadContext&, Scenario&);
WorkloadReader workload_reader(std::string_view kind);

}  // namespace parallax

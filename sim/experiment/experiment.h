// File: sim/experiment/experiment.h
// The experiment layer: one Experiment per workload kind, each one row of the registry
// (experiment_registry.cpp): the kind's name, its `workload:` reader (sim/scenario), the function
// that runs the loaded Scenario and returns a Result, and the function that renders its report page
// from that Result. `run`, `sweep` and `report` reach every kind through here; adding a kind is a
// reader, an experiment file and a registry row (docs/architecture.md, "Adding a workload kind").
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/engine/engine.h"
#include "sim/experiment/result.h"
#include "sim/platform/activity_record.h"
#include "sim/platform/gpu_partitioning.h"
#include "sim/platform/hardware_spec.h"
#include "sim/platform/platform.h"
#include "sim/report/html_report.h"
#include "sim/scenario/config_tree.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/workload_kinds.h"

namespace parallax {

class RunProgress;

// Builds the Platform an experiment's policies run on: SimPlatform by default; a hardware backend
// passes its own (hw/: CudaPlatform). `log`, when not null, receives every activity (trace.json).
// `partitioning`: the MIG/green-context rules of the spec's GPU models, for SimPlatform's
// partitioning() (a hardware platform probes its own).
using PlatformFactory = std::function<std::unique_ptr<Platform>(
    Engine& engine, const HardwareSpec& hardware, ActivityLog* log, std::vector<GpuPartitioning> partitioning)>;

struct ExperimentContext {
  std::string out_dir;               // the output folder ("": none): build its tables and trace
  RunProgress* progress = nullptr;   // the share done so far (sim/experiment/run_progress.h); may be null
  PlatformFactory platform;          // empty: SimPlatform
  std::string chakra_out;            // kind training: write the chosen step's ETs here ("": none)

  bool outputs() const { return !out_dir.empty(); }
  std::unique_ptr<Platform> make_platform(Engine& engine, const HardwareSpec& hardware, ActivityLog* log,
                                          std::vector<GpuPartitioning> partitioning = {}) const;
};

struct Experiment {
  std::string_view kind;                                        // workload.kind
  WorkloadReader reader;                                        // fills the Scenario from `workload:` (the loader's)
  Result (*run)(const Scenario&, const ExperimentContext&);     // the whole experiment, in memory
  HtmlReport (*page)(const Scenario&, const Result&);           // report.html's body, from the Result
};

// Every row, in the order of workload_kind_names().
std::span<const Experiment> experiments();

// The row of `kind`; std::logic_error when there is none (the loader accepted an unknown kind).
const Experiment& experiment_for(std::string_view kind);

// Runs `scenario` through its kind's row and stamps Result::kind.
Result run_experiment(const Scenario& scenario, const ExperimentContext& context);

}  // namespace parallax

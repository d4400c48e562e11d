// File: sim/experiment/experiment_registry.cpp
// The registry: one row per workload kind (docs/architecture.md, "Adding a workload kind").
#include <array>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/experiment/experiment.h"
#include "sim/platform/sim_platform.h"
#include "sim/scenario/chakra_workload.h"
#include "sim/scenario/cluster_packing_workload.h"
#include "sim/scenario/colocate_workload.h"
#include "sim/scenario/multiplex_workload.h"
#include "sim/scenario/overlap_workload.h"
#include "sim/scenario/serverless_workload.h"
#include "sim/scenario/training_workload.h"
#include "sim/scenario/transfer_workload.h"

namespace parallax {

// Each defined in its experiment file, sim/experiment/<kind>_experiment.cpp.
Result run_transfers(const Scenario&, const ExperimentContext&);
HtmlReport transfers_page(const Scenario&, const Result&);
Result run_overlap(const Scenario&, const ExperimentContext&);
HtmlReport overlap_page(const Scenario&, const Result&);
Result run_serverless(const Scenario&, const ExperimentContext&);
HtmlReport serverless_page(const Scenario&, const Result&);
Result run_colocate(const Scenario&, const ExperimentContext&);
HtmlReport colocate_page(const Scenario&, const Result&);
Result run_multiplex(const Scenario&, const ExperimentContext&);
HtmlReport multiplex_page(const Scenario&, const Result&);
Result run_cluster_packing(const Scenario&, const ExperimentContext&);
HtmlReport cluster_packing_page(const Scenario&, const Result&);
Result run_training(const Scenario&, const ExperimentContext&);
HtmlReport training_page(const Scenario&, const Result&);
Result run_chakra(const Scenario&, const ExperimentContext&);
HtmlReport chakra_page(const Scenario&, const Result&);

namespace {

constexpr std::array<Experiment, 8> kExperiments{{
    {"transfers", read_transfer_workload, run_transfers, transfers_page},
    {"overlap", read_overlap_workload, run_overlap, overlap_page},
    {"serverless", read_serverless_workload, run_serverless, serverless_page},
    {"colocate", read_colocate_workload, run_colocate, colocate_page},
    {"multiplex", read_multiplex_workload, run_multiplex, multiplex_page},
    {"cluster_packing", read_cluster_packing_workload, run_cluster_packing, cluster_packing_page},
    {"training", read_training_workload, run_training, training_page},
    {"chakra", read_chakra_workload, run_chakra, chakra_page},
}};

}  // namespace

std::unique_ptr<Platform> ExperimentContext::make_platform(Engine& engine, const HardwareSpec& hardware,
                                                           ActivityLog* log,
                                                           std::vector<GpuPartitioning> partitioning) const {
  if (platform) return platform(engine, hardware, log, std::move(partitioning));
  return std::make_unique<SimPlatform>(engine, hardware, log, std::move(partitioning));
}

std::span<const Experiment> experiments() { return kExperiments; }

const Experiment& experiment_for(std::string_view kind) {
  for (const Experiment& e : kExperiments)
    if (e.kind == kind) return e;
  throw std::logic_error(fmt::format("no experiment for workload kind '{}'", kind));
}

Result run_experiment(const Scenario& scenario, const ExperimentContext& context) {
  Result r = experiment_for(scenario.workload_kind).run(scenario, context);
  r.kind = scenario.workload_kind;
  return r;
}

CsvTable Result::table(const std::string& name) const {
  for (const OutputFile& f : files)
    if (f.name == name) return parse_csv(f.text);
  return CsvTable{};
}

}  // namespace parallax

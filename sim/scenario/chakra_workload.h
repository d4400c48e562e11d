// File: sim/scenario/chakra_workload.h
// workload.kind == "chakra": replay a Chakra execution-trace set, one ET per rank
// (`NAME.<rank>.et`), on the scenario's machine (docs/chakra.md; run by
// sim/experiment/chakra_experiment.cpp).
//
//   workload:
//     kind: chakra
//     trace: ../../traces/chakra/gpt_tp2_pp2_dp2   # a folder; relative to this file
//     recorded_on: dgx-a100    # optional: the hardware preset the durations were recorded on;
//                              # recorded durations are scaled by its GPU's peak / the target's
//     ctrl_deps: ignore        # optional: ignore (default, as Chakra's feeder) or follow
//
// Loading checks that the folder exists; `parallax run` reads the ETs (sim/workload/chakra_reader.h),
// so a bad trace is an exit 2 naming the file, the node id and the field.
#pragma once

#include <string>

#include "sim/scenario/config_tree.h"

namespace parallax {

struct Scenario;
struct WorkloadContext;

struct ChakraWorkloadSpec {
  std::string trace_dir;          // as resolved
  std::string recorded_on;  // a hardware preset's name; empty: durations as recorded
  bool follow_ctrl_deps = false;
};

void read_chakra_workload(const ConfigNode& workload, const std::string& path, const WorkloadContext& context,
                          Scenario& scenario);

}  // namespace parallax

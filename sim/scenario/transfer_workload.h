// File: sim/scenario/transfer_workload.h
// The reader for `workload.kind: transfers`: inline point-to-point transfers, transfers from a
// CSV file (after the inline ones, in file order) and collectives over GPU groups.
#pragma once

#include <string>

#include "sim/scenario/workload_kinds.h"

namespace parallax {

void read_transfer_workload(const ConfigNode& workload, const std::string& path, const WorkloadContext& context,
                            Scenario& scenario);

}  // namespace parallax

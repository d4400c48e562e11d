// File: sim/scenario/transfer_workload.h
// The reader for `workload.kind: transfers`: inline point-to-point transfers, transfers from a
// CSV file (after the inline ones, in file order) and collectives over GPU groups.
#pragma once

#include <cstdint>
#include <string>

#include "sim/scenario/workload_kinds.h"

namespace parallax {

// The most hop transfers one ring collective may take: P GPUs each send one chunk per step, for
// 2(P-1) steps (all_reduce) or P-1 (all_gather, reduce_scatter), so the work grows as P^2. The
// limit admits an all_reduce ring of 8,192 GPUs (134 M transfers; P = 4,096 takes 9 s,
// docs/performance.md); a ring over the 65,536 GPUs a machine may have (8.6 G transfers, hours)
// is refused at its `group` (docs/reliability.md "Bounded work").
inline constexpr uint64_t kMaxRingHopTransfers = uint64_t{1} << 27;

void read_transfer_workload(const ConfigNode& workload, const std::string& path, const WorkloadContext& context,
                            Scenario& scenario);

}  // namespace parallax

// File: sim/scenario/scenario.h
// A scenario, typed: the machine (a resolved HardwareSpec), the workload, the seed and what to
// write. Produced by load_scenario() from YAML; consumed by tools/ and the workloads. Units are in
// the field names; times are engine Time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/engine/sim_time.h"
#include "sim/platform/hardware_spec.h"
#include "sim/scenario/chakra_workload.h"
#include "sim/scenario/cluster_packing_workload.h"
#include "sim/scenario/colocate_workload.h"
#include "sim/scenario/multiplex_workload.h"
#include "sim/scenario/overlap_workload.h"
#include "sim/scenario/serverless_workload.h"
#include "sim/scenario/training_workload.h"

namespace parallax {

// One point-to-point transfer. Endpoints are node names: "gpu3", "host0".
struct TransferSpec {
  std::string src, dst;
  int64_t bytes = 0;
  Time start;
  std::string name;  // optional label
};

// A collective over a group of GPUs (ids in ring order).
struct CollectiveSpec {
  std::string op = "all_reduce";  // all_reduce | all_gather | reduce_scatter
  std::string algo = "ring";
  std::vector<int> group;
  int64_t bytes = 0;
  Time start;
  std::string name;
};

// workload.kind == "transfers": inline transfers, transfers from a CSV file, and collectives.
// Where a run of rows of a transfer CSV starts, and its earliest start time: what the replay needs
// to read the file a chunk at a time in start order (sim/scenario/transfer_csv.h).
struct TransferCsvChunk {
  uint64_t offset = 0;  // byte offset of the chunk's first row
  int line = 0;         // its line number (1-based)
  uint32_t rows = 0;
  Time min_start;
};

struct TransferWorkloadSpec {
  std::vector<TransferSpec> transfers;  // the inline ones, in file order
  std::string transfers_csv;            // path as resolved (relative to the scenario file); "" if none
  size_t csv_rows = 0;                  // its rows: checked at load, read again as the replay needs them
  std::vector<TransferCsvChunk> csv_chunks;
  std::vector<TransferSpec> csv_first_chunk;  // the first chunk's rows, kept from the check

  double csv_bytes = 0;       // the rows' bytes, summed (the load-time bound on the run's span)
  Time csv_max_start;         // their latest start
  int csv_largest_line = 0;   // the line of the row with the most bytes
  std::vector<CollectiveSpec> collectives;
};

struct OutputSpec {
  bool activities_csv = true;  // activities.csv, one row per activity
  bool trace = true;           // trace.json (Perfetto)
  // trace.json holds at most this many activities, the first by start time, and the counters,
  // requests and phases up to the first one left out (docs/metrics.md#trace-size); 0 = no limit.
  int64_t trace_limit = 20'000;
};

struct Scenario {
  std::string name;
  std::string description;
  std::string source;  // file the scenario came from ("<embedded quickstart>" for the default)
  uint64_t seed = 1;
  HardwareSpec hardware;
  std::string workload_kind;  // "transfers" (other systems add theirs)
  TransferWorkloadSpec transfers;
  OverlapWorkloadSpec overlap;  // workload_kind == "overlap"
  ServerlessWorkloadSpec serverless;  // workload_kind == "serverless"
  ColocateWorkloadSpec colocate;  // workload_kind == "colocate"
  MultiplexWorkloadSpec multiplex;  // workload_kind == "multiplex"
  ClusterPackingWorkloadSpec cluster_packing;  // workload_kind == "cluster_packing"
  TrainingWorkloadSpec training;  // workload_kind == "training"
  ChakraWorkloadSpec chakra;  // workload_kind == "chakra"
  OutputSpec output;
};

}  // namespace parallax

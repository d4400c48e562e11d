// File: sim/report/run_summary.h
// The numbers of one run, gathered by the run command from the engine, the platform and the
// workload, and turned into summary.json and the console table. Every field is defined in
// docs/metrics.md (section summary.json); this file only computes and formats them.
#pragma once

#include "sim/report/console_table.h"

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/engine/sim_time.h"

namespace parallax {

struct CollectiveSummary {
  std::string name;
  std::string op;  // all_reduce, all_gather, reduce_scatter
  int gpus = 0;
  int64_t bytes = 0;
  Time start, end;
};

struct LinkSummary {
  std::string name;  // "gpu0→nvswitch"
  std::string kind;  // "nvlink", "pcie", ...
  double bandwidth_Bps = 0;
  double bytes = 0;
  Time busy;
  uint64_t transfers = 0;
};

struct TransferSummary {
  uint64_t count = 0;
  double sum_completion_s = 0;  // Σ finish time (from t = 0)
  double sum_fct_s = 0;         // Σ (finish − issue)
};

struct RunSummary {
  std::string scenario;
  std::string hardware;
  uint64_t seed = 0;
  std::string parallax_version;
  std::string git_commit;
  Time makespan;
  uint64_t events = 0;
  uint64_t copies = 0, kernels = 0, collectives_count = 0;
  double bytes_moved = 0;  // copies only (ring steps included)
  TransferSummary transfers;
  std::vector<CollectiveSummary> collectives;
  std::vector<LinkSummary> links;
};

// nccl-tests' bus-bandwidth factor for an op over n GPUs (docs/metrics.md#busbw_gbps).
double busbw_factor(const std::string& op, int n);

nlohmann::ordered_json to_json(const RunSummary& s);
// A few readable tables: the run (with `wall_s`, this machine's time for engine.run(), which is in
// timing.json, not summary.json), the collectives, the busiest links. `out_dir` is where
// summary.json went ("" without --out): the note on links left out names it.
std::vector<ConsoleTable> run_report_tables(const RunSummary& s, double wall_s, const std::string& out_dir,
                                            size_t max_links = 8);

}  // namespace parallax

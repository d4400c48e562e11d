// File: sim/scenario/transfer_replay.h
// Replays the transfer workload: point-to-point copies and collectives issued at given times, the first
// thing a platform runs (and what the SimGrid anchor benchmarks compare). It talks to Platform
// only, so the same replay runs in simulation or on GPUs. The rows of a transfer CSV come from a
// TransferCsvStream as their start times come due, so memory does not grow with the file; what
// the replay keeps per transfer is only its start while it is in flight, and running totals.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/platform/platform.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/transfer_csv.h"

namespace parallax {

// Over every point-to-point transfer, summed exactly in picoseconds (so the totals do not depend
// on the order transfers finish in).
struct TransferTotals {
  uint64_t count = 0;
  __int128 sum_finish_ps = 0;    // completion times
  __int128 sum_duration_ps = 0;  // finish - issue (flow completion times)

  double sum_completion_s() const { return static_cast<double>(sum_finish_ps) * 1e-12; }
  double sum_fct_s() const { return static_cast<double>(sum_duration_ps) * 1e-12; }
};

struct CollectiveOutcome {
  std::string name;
  CollectiveOp op;
  int gpus = 0;
  int64_t bytes = 0;
  Time start;
  Time finish;
};

// Parses "gpu3", "host0", or "host" (host 0). Throws PlatformError for anything else.
Endpoint parse_endpoint(std::string_view node_name);
CollectiveOp parse_collective_op(std::string_view op);
CollectiveAlgo parse_collective_algo(std::string_view algo);

class TransferReplay final : public CompletionListener {
 public:
  // `spec` and `csv` (the rows of spec.transfers_csv) must outlive the replay. Nothing is issued
  // before start(). At one start time: transfers in order (inline ones, then CSV rows), then
  // collectives.
  TransferReplay(Platform& platform, const TransferWorkloadSpec& spec, TransferCsvStream& csv);
  // Issues what is due now and wakes up for the rest.
  void start();
  void on_complete(uint64_t tag) override;

  bool finished() const { return done_ == total_; }
  size_t done() const { return done_; }
  size_t total() const { return total_; }
  const TransferTotals& transfer_totals() const { return totals_; }
  const std::vector<CollectiveOutcome>& collectives() const { return collectives_; }

 private:
  void issue_due();
  void issue_transfer(const TransferSpec& t);

  Platform& platform_;
  const TransferWorkloadSpec& spec_;
  TransferCsvStream& csv_;
  struct Item {
    Time at;
    uint32_t index;  // into spec.transfers (inline) or spec.collectives
    bool is_collective;
  };
  std::vector<Item> order_;  // the inline transfers and the collectives, by start time, stable
  size_t next_ = 0;
  std::vector<std::vector<GpuId>> groups_;
  // When each transfer in flight was issued, by slot (its copy's tag is slot << 1); a finished
  // transfer's slot is reused, so this holds as many as ever ran at once, with no allocation a
  // transfer (an unordered_map by transfer index allocated a node each).
  std::vector<Time> issued_;
  std::vector<uint32_t> free_slots_;
  TransferTotals totals_;
  std::vector<CollectiveOutcome> collectives_;
  size_t done_ = 0, total_ = 0;
};

}  // namespace parallax

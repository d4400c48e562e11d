// File: sim/workload/transfer_replay.h
// Replays the transfer workload: point-to-point copies and collectives issued at given times, the first
// thing a platform runs (and what the SimGrid anchor benchmarks compare). It talks to Platform
// only, so the same replay runs in simulation or on GPUs.
#pragma once

#include <string>
#include <vector>

#include "sim/platform/platform.h"
#include "sim/scenario/scenario.h"

namespace parallax {

struct TransferOutcome {
  Time start;   // when it was issued
  Time finish;  // when its last byte arrived
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

class TransferReplay final : public CompletionListener {
 public:
  // `spec` must outlive the workload. Nothing is issued before start().
  TransferReplay(Platform& platform, const TransferWorkloadSpec& spec);
  // Schedules every transfer and collective at its start time.
  void start();
  void on_complete(uint64_t tag) override;

  bool finished() const { return done_ == total_; }
  size_t done() const { return done_; }
  size_t total() const { return total_; }
  const std::vector<TransferOutcome>& transfers() const { return transfers_; }
  const std::vector<CollectiveOutcome>& collectives() const { return collectives_; }

 private:
  void issue_due();

  Platform& platform_;
  const TransferWorkloadSpec& spec_;
  struct Item {
    Time at;
    uint32_t index;      // into transfers or collectives
    bool is_collective;
  };
  std::vector<Item> order_;  // by start time, stable
  size_t next_ = 0;
  std::vector<Endpoint> src_, dst_;
  std::vector<std::vector<GpuId>> groups_;
  std::vector<TransferOutcome> transfers_;
  std::vector<CollectiveOutcome> collectives_;
  size_t done_ = 0, total_ = 0;
};

}  // namespace parallax

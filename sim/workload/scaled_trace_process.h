// File: sim/workload/scaled_trace_process.h
// Arrivals replayed from a recorded trace with its time axis stretched or compressed to a chosen
// mean rate, so the trace's burstiness (its pattern of gaps) is kept while the load is set by the
// scenario: arrival k at start + t_k · s, where t_k is the k-th recorded time (relative to the
// first, sorted) and s = (n / t_last) / rate_per_s. After the last recorded arrival the process
// ends (next() returns Time::max()). No randomness.
//
//   Azure LLM code trace head (1,000 requests over 521.6 s, 1.92 req/s) at rate_per_s 20,000:
//   s = 1.92 / 20,000, so the 1,000 arrivals span 50 ms.
#pragma once

#include <string>
#include <vector>

#include "sim/workload/arrival_process.h"

namespace parallax {

class ScaledTraceProcess final : public ArrivalProcess {
 public:
  // `times` sorted, at least two distinct values; std::invalid_argument otherwise or if
  // rate_per_s <= 0.
  ScaledTraceProcess(std::vector<Time> times, double rate_per_s, Time start = Time::zero());
  Time next() override;
  double mean_rate_per_s() const override { return rate_; }
  double time_scale() const { return scale_; }

 private:
  std::vector<Time> times_;
  double rate_, scale_;
  Time start_;
  size_t k_ = 0;
};

// The arrival times of an Azure LLM inference trace (sim/workload/azure_llm_trace.h) at `path`,
// scaled to rate_per_s. InputError for a bad file (one whose rows span no time included).
std::unique_ptr<ArrivalProcess> make_azure_llm_process(const std::string& path, double rate_per_s,
                                                       Time start = Time::zero());

}  // namespace parallax

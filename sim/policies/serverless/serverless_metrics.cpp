// File: sim/policies/serverless/serverless_metrics.cpp
#include "sim/policies/serverless/serverless_metrics.h"

#include <algorithm>
#include <cmath>

namespace parallax {

double nearest_rank(std::vector<double> values, double q) { return nearest_rank_in_place(values, q); }

// The k-th smallest value is the same whichever way it is found: a selection (O(n)) gives the
// sorted order's value without sorting. Permutes `values`.
double nearest_rank_in_place(std::vector<double>& values, double q) {
  if (values.empty()) return 0;
  const auto rank = static_cast<size_t>(std::ceil(q * static_cast<double>(values.size())));
  const auto at = values.begin() + static_cast<std::ptrdiff_t>(std::clamp<size_t>(rank, 1, values.size()) - 1);
  std::nth_element(values.begin(), at, values.end());
  return *at;
}

ServerlessSummary summarise_serverless(const ServerlessNode& node) {
  const ServerlessNode* one = &node;
  return summarise_serverless(std::span<const ServerlessNode* const>(&one, 1));
}

ServerlessSummary summarise_serverless(std::span<const ServerlessNode* const> nodes) {
  ServerlessSummary s;
  const ServerlessNode& node = *nodes.front();  // functions, models and policy are the same on every node
  s.policy = node.policy().name;
  const size_t n = node.functions().size();
  std::vector<FunctionLatency> per(n);
  // Two passes over the outcomes (node by node, arrival order, as the sums always ran): count,
  // then fill vectors of exactly the size needed (24 B a finished request besides the outcomes).
  for (const ServerlessNode* at : nodes)
    for (const RequestOutcome& r : at->outcomes()) {
      ++per[r.function].arrived;
      if (r.state == RequestState::finished) ++per[r.function].finished;
    }
  std::vector<std::vector<double>> latency(n);
  for (size_t i = 0; i < n; ++i) latency[i].reserve(per[i].finished);
  std::vector<double> all, queue_all;
  double queue_sum = 0;
  Time last_finish = Time::zero();
  for (const FunctionLatency& f : per) s.finished += f.finished;
  all.reserve(s.finished);
  queue_all.reserve(s.finished);
  for (const ServerlessNode* at : nodes) {
    last_finish = std::max(last_finish, at->last_finish());
    for (const RequestOutcome& r : at->outcomes()) {
      FunctionLatency& f = per[r.function];
      ++s.arrived;
      if (r.state == RequestState::dropped) {
        ++f.dropped;
        ++s.dropped;
      } else if (r.state == RequestState::finished) {
        const double l = r.latency.to_seconds();
        latency[r.function].push_back(l);
        all.push_back(l);
        const double q = r.queueing.to_seconds();
        f.mean_queue_s += q;
        queue_sum += q;
        queue_all.push_back(q);
        f.cold_starts += r.cold_start ? 1 : 0;
      } else {
        ++s.queued;  // queued or running when the run stopped
      }
    }
  }
  for (size_t i = 0; i < n; ++i) {
    FunctionLatency& f = per[i];
    const ServedModel& m = node.models()[node.functions()[i].model];
    f.name = node.functions()[i].name;
    f.model = m.name;
    f.slo_s = m.slo.to_seconds();
    f.p50_s = nearest_rank_in_place(latency[i], 0.50);
    f.p98_s = nearest_rank_in_place(latency[i], 0.98);
    f.p99_s = nearest_rank_in_place(latency[i], 0.99);
    std::vector<double>().swap(latency[i]);
    if (f.finished > 0) f.mean_queue_s /= static_cast<double>(f.finished);
    f.compliant = f.arrived > 0 && f.dropped == 0 && f.finished == f.arrived && f.p98_s <= f.slo_s;
    if (f.arrived > 0) {
      ++s.functions;
      s.functions_compliant += f.compliant ? 1 : 0;
    }
  }
  s.functions_hosted = node.policy().hosting == HostingMode::native && nodes.size() == 1 ? node.functions_hosted() : s.functions;
  s.slo_attainment = s.functions > 0 ? static_cast<double>(s.functions_compliant) / s.functions : 0;
  double sum = 0;
  for (double l : all) sum += l;  // before the selections permute `all`
  s.mean_latency_s = all.empty() ? 0 : sum / static_cast<double>(all.size());
  s.p50_latency_s = nearest_rank_in_place(all, 0.50);
  s.p99_latency_s = nearest_rank_in_place(all, 0.99);
  s.mean_queue_s = all.empty() ? 0 : queue_sum / static_cast<double>(all.size());
  s.p50_queue_s = nearest_rank_in_place(queue_all, 0.50);
  s.p99_queue_s = nearest_rank_in_place(queue_all, 0.99);
  s.makespan_s = last_finish.to_seconds();
  for (const ServerlessNode* at : nodes) {
    s.gpus_used += at->gpus_used();
    const SwapCounters& c = at->counters();
    s.swaps_pcie += c.pcie;
    s.swaps_nvlink += c.nvlink;
    s.evictions += c.evictions;
    s.cold_starts += c.cold_starts;
    s.pcie_bytes += c.pcie_bytes;
    s.nvlink_bytes += c.nvlink_bytes;
  }
  s.gpu_seconds = s.gpus_used * s.makespan_s;
  s.per_function = std::move(per);
  return s;
}

}  // namespace parallax

// File: sim/policies/serverless/serverless_metrics.cpp
#include "sim/policies/serverless/serverless_metrics.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace parallax {

double nearest_rank(std::vector<double> values, double q) {
  double out = 0;
  nearest_ranks_in_place(values, std::span<const double>(&q, 1), std::span<double>(&out, 1));
  return out;
}

// The k-th smallest value is the same whichever way it is found: a selection (O(n)) gives the
// sorted order's value without sorting. After the selection of rank k the values past k are the
// larger ones, so a higher rank is selected among those only.
void nearest_ranks_in_place(std::span<double> values, std::span<const double> qs, std::span<double> out) {
  size_t from = 0;  // values[0, from) are the smallest, in place
  for (size_t i = 0; i < qs.size(); ++i) {
    if (values.empty()) {
      out[i] = 0;
      continue;
    }
    const auto rank = static_cast<size_t>(std::ceil(qs[i] * static_cast<double>(values.size())));
    const size_t k = std::clamp<size_t>(rank, 1, values.size()) - 1;
    if (k >= from) {
      std::nth_element(values.begin() + static_cast<std::ptrdiff_t>(from), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
      from = k + 1;
    }
    out[i] = values[k];
  }
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
  // One pass over the outcomes, node by node in arrival order (the order the sums always ran in).
  // Each function's latencies go to its own stretch of one buffer, sized from the nodes' counts:
  // 16 B a finished request (latency, queueing) besides the outcomes.
  std::vector<size_t> begin(n + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    for (const ServerlessNode* at : nodes) per[i].finished += at->finished_of(static_cast<uint32_t>(i));
    begin[i + 1] = begin[i] + per[i].finished;
  }
  s.finished = begin[n];
  std::vector<double> latency(s.finished), queueing(s.finished);
  std::vector<size_t> cursor(begin.begin(), begin.end() - 1);
  size_t queued_at = 0;
  double sum = 0, queue_sum = 0;
  Time last_finish = Time::zero();
  for (const ServerlessNode* at : nodes) {
    last_finish = std::max(last_finish, at->last_finish());
    for (const RequestOutcome& r : at->outcomes()) {
      FunctionLatency& f = per[r.function];
      ++f.arrived;
      ++s.arrived;
      if (r.state == RequestState::dropped) {
        ++f.dropped;
        ++s.dropped;
      } else if (r.state == RequestState::finished) {
        const double l = r.latency.to_seconds();
        latency[cursor[r.function]++] = l;
        sum += l;
        const double q = r.queueing.to_seconds();
        f.mean_queue_s += q;
        queue_sum += q;
        queueing[queued_at++] = q;
        f.cold_starts += r.cold_start ? 1 : 0;
      } else {
        ++s.queued;  // queued or running when the run stopped
      }
    }
  }
  static constexpr std::array<double, 3> kFunctionRanks{0.50, 0.98, 0.99};
  static constexpr std::array<double, 2> kNodeRanks{0.50, 0.99};
  for (size_t i = 0; i < n; ++i) {
    FunctionLatency& f = per[i];
    const ServedModel& m = node.models()[node.functions()[i].model];
    f.name = node.functions()[i].name;
    f.model = m.name;
    f.slo_s = m.slo.to_seconds();
    std::array<double, 3> p{};
    nearest_ranks_in_place(std::span<double>(latency).subspan(begin[i], f.finished), kFunctionRanks, p);
    f.p50_s = p[0];
    f.p98_s = p[1];
    f.p99_s = p[2];
    if (f.finished > 0) f.mean_queue_s /= static_cast<double>(f.finished);
    f.compliant = f.arrived > 0 && f.dropped == 0 && f.finished == f.arrived && f.p98_s <= f.slo_s;
    if (f.arrived > 0) {
      ++s.functions;
      s.functions_compliant += f.compliant ? 1 : 0;
    }
  }
  s.functions_hosted = node.policy().hosting == HostingMode::native && nodes.size() == 1 ? node.functions_hosted() : s.functions;
  s.slo_attainment = s.functions > 0 ? static_cast<double>(s.functions_compliant) / s.functions : 0;
  s.mean_latency_s = s.finished == 0 ? 0 : sum / static_cast<double>(s.finished);
  std::array<double, 2> p{};
  nearest_ranks_in_place(latency, kNodeRanks, p);  // the functions' selections only permuted it
  s.p50_latency_s = p[0];
  s.p99_latency_s = p[1];
  s.mean_queue_s = s.finished == 0 ? 0 : queue_sum / static_cast<double>(s.finished);
  nearest_ranks_in_place(queueing, kNodeRanks, p);
  s.p50_queue_s = p[0];
  s.p99_queue_s = p[1];
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

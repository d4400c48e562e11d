// File: sim/report/link_activity.cpp
#include "sim/report/link_activity.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace parallax {
namespace {

struct Change {
  Time at;
  int64_t flows;
  double rate_Bps;
};

LinkActivity sweep(std::vector<Change>& changes) {
  LinkActivity result;
  // Stable: changes at one instant apply in record order, so the float sums are reproducible.
  std::stable_sort(changes.begin(), changes.end(),
                   [](const Change& a, const Change& b) { return a.at < b.at; });
  int64_t flows = 0;
  double rate = 0;
  Time busy_since;
  for (size_t i = 0; i < changes.size();) {
    const Time at = changes[i].at;
    const bool was_busy = flows > 0;
    for (; i < changes.size() && changes[i].at == at; ++i) {
      flows += changes[i].flows;
      rate += changes[i].rate_Bps;
    }
    if (flows == 0) rate = 0;  // drop the rounding left over from adding and removing rates
    if (!was_busy && flows > 0) busy_since = at;
    if (was_busy && flows == 0) result.busy += at - busy_since;
    const bool same = !result.samples.empty() && result.samples.back().flows == flows &&
                      result.samples.back().rate_Bps == rate;
    if (!same) result.samples.push_back({at, flows, rate});
  }
  return result;
}

}  // namespace

std::vector<LinkActivity> link_activity(const ActivityLog& log,
                                        std::span<const ActivityRecord* const> records) {
  const size_t links = log.link_directions.size();
  std::vector<std::vector<Change>> changes(links);
  std::vector<double> bytes(links, 0);
  std::vector<uint64_t> transfers(links, 0);
  for (const ActivityRecord* r : records) {
    if (r->kind == ActivityKind::kernel) continue;
    const int64_t duration_ps = (r->end - r->start).ps();
    // docs/metrics.md#link-counters: each flow is taken at its average rate over its lifetime.
    const double rate = duration_ps > 0 ? r->bytes / (static_cast<double>(duration_ps) * 1e-12) : 0;
    for (int link : r->links) {
      const auto l = static_cast<size_t>(link);
      if (link < 0 || l >= links) {
        throw std::invalid_argument(fmt::format("activity {}: link-direction id {} is not in the table of {}",
                                                r->id, link, links));
      }
      bytes[l] += r->bytes;
      ++transfers[l];
      if (duration_ps <= 0) continue;
      changes[l].push_back({r->start, 1, rate});
      changes[l].push_back({r->end, -1, -rate});
    }
  }
  std::vector<LinkActivity> result(links);
  for (size_t l = 0; l < links; ++l) {
    result[l] = sweep(changes[l]);
    result[l].bytes = bytes[l];
    result[l].transfers = transfers[l];
  }
  return result;
}

std::vector<LinkActivity> link_activity(const ActivityLog& log) {
  std::vector<const ActivityRecord*> all;
  all.reserve(log.records.size());
  for (const ActivityRecord& r : log.records) all.push_back(&r);
  return link_activity(log, all);
}

}  // namespace parallax

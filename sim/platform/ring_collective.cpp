// File: sim/platform/ring_collective.cpp
#include "sim/platform/ring_collective.h"

#include <algorithm>

#include "sim/platform/sim_platform.h"

namespace parallax {

RingCollective::RingCollective(SimPlatform& platform, CollectiveOp op, std::vector<GpuId> group,
                               Bytes bytes, CompletionListener& listener, uint64_t tag, ActivityId id)
    : FlowCollective(platform, op, std::move(group), bytes, listener, tag, id) {
  const int p = static_cast<int>(group_.size());
  steps_ = op_ == CollectiveOp::all_reduce ? 2 * (p - 1) : p - 1;
  chunk_bytes_ = static_cast<double>(bytes_.count() / p);
  done_.assign(group_.size(), 0);
  in_flight_.assign(group_.size(), 0);
}

void RingCollective::start() {
  if (steps_ == 0) {
    finish();
    return;
  }
  // Each hop's route is looked up once; in hop order, as the first step issues them.
  for (size_t h = 0; h < group_.size(); ++h) hops_.push_back(platform_.step_route(group_[h], group_[next(h)]));
  for (size_t h = 0; h < group_.size(); ++h) try_start(h);
}

void RingCollective::on_complete(uint64_t hop) {
  const size_t h = static_cast<size_t>(hop);
  in_flight_[h] = 0;
  if (++done_[h] == steps_ && ++hops_finished_ == group_.size()) {
    finish();  // destroys *this
    return;
  }
  try_start(prev(h));
  try_start(h);
  try_start(next(h));
}

}  // namespace parallax

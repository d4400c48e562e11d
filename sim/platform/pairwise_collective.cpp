// File: sim/platform/pairwise_collective.cpp
#include "sim/platform/pairwise_collective.h"

#include "sim/platform/sim_platform.h"

namespace parallax {

PairwiseCollective::PairwiseCollective(SimPlatform& platform, CollectiveOp op, std::vector<GpuId> group, Bytes bytes,
                                       CompletionListener& listener, uint64_t tag, ActivityId id)
    : FlowCollective(platform, op, std::move(group), bytes, listener, tag, id) {
  const size_t p = group_.size();
  const bool a2a = op_ == CollectiveOp::all_to_all;
  steps_ = p < 2 ? 0 : (a2a ? static_cast<int>(p) - 1 : 1);
  step_bytes_ = static_cast<double>(a2a ? bytes_.count() / static_cast<int64_t>(p) : bytes_.count());
}

size_t PairwiseCollective::peer(size_t i, int step) const {
  const size_t offset = op_ == CollectiveOp::all_to_all ? static_cast<size_t>(step) + 1 : 1;
  return (i + offset) % group_.size();
}

void PairwiseCollective::start() {
  if (steps_ == 0) {
    finish();
    return;
  }
  start_step();
}

void PairwiseCollective::start_step() {
  in_step_ = group_.size();
  for (size_t i = 0; i < group_.size(); ++i) issue(group_[i], group_[peer(i, step_)], step_bytes_, i);
}

void PairwiseCollective::on_complete(uint64_t) {
  if (--in_step_ > 0) return;
  if (++step_ == steps_) {
    finish();  // destroys *this
    return;
  }
  start_step();
}

}  // namespace parallax

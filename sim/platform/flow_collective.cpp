// File: sim/platform/flow_collective.cpp
#include "sim/platform/flow_collective.h"

#include "sim/platform/sim_platform.h"

namespace parallax {

void FlowCollective::finish() { platform_.finish_collective(this); }

ActivityId FlowCollective::issue(int src_gpu, int dst_gpu, double bytes, uint64_t tag) {
  return issue(platform_.step_route(src_gpu, dst_gpu), bytes, tag);
}

}  // namespace parallax

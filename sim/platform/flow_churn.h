// File: sim/platform/flow_churn.h
// The flow solver's benchmark (`parallax bench flows`): N flows stay active; at each event the
// flows that finish are replaced by new ones at that instant (the solver re-solves what the
// change touched) until E replacements. Two shapes bracket what a finish may touch:
//   crossbar     G GPUs on one switch: a flow is a random (src, dst) pair using src's uplink and
//                dst's downlink. Every flow is coupled to every other (one component), but flows on
//                one pair form one class, so a re-solve visits at most G(G-1) classes whatever N is.
//   independent  N/4 separate link pairs, 4 flows each: a finish touches one small component.
// Work counters come from the solver (classes re-solved), so the cost per event can be set
// against what an event touches.
#pragma once

#include <cstdint>
#include <string>

namespace parallax {

enum class FlowChurnShape { crossbar, independent };

struct FlowChurnResult {
  uint64_t flows = 0;             // kept active
  uint64_t events = 0;            // completions replaced
  uint64_t solves = 0;
  uint64_t classes_solved = 0;    // summed over the solves of the measured events
  uint64_t active_classes = 0;    // at the end
  double setup_s = 0;             // starting the N flows and the first solve
  double wall_s = 0;              // the measured events
  double cpu_s = 0;               // their CPU time (this thread): what a loaded machine does not inflate
};

FlowChurnResult run_flow_churn(FlowChurnShape shape, uint64_t flows, uint64_t events, uint64_t seed = 1);

const char* to_string(FlowChurnShape shape);

}  // namespace parallax

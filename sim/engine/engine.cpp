// File: sim/engine/engine.cpp
#include "sim/engine/engine.h"

namespace parallax {

// The entry being dispatched stays at the top of the heap until the handler returns. If the
// handler schedules an event meanwhile, that event replaces the top with one sift-down instead of
// a pop followed by a push; otherwise the entry is popped afterwards.
void Engine::dispatch_top() {
  const EventEntry& e = queue_.top();
  now_ = Time::ps(e.time_ps);
  EventHandler* handler = e.handler;
  uint64_t tag = e.tag;
  dispatching_top_ = true;
  handler->handle_event(tag);
  if (dispatching_top_) {
    dispatching_top_ = false;
    queue_.pop();
  }
  ++processed_;
}

void Engine::run(Time until) {
  stopped_ = false;
  while (!stopped_ && !queue_.empty() && queue_.top().time_ps <= until.ps()) dispatch_top();
}

bool Engine::step() {
  if (queue_.empty()) return false;
  dispatch_top();
  return true;
}

}  // namespace parallax

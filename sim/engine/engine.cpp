// File: sim/engine/engine.cpp
#include "sim/engine/engine.h"

namespace parallax {

// The entry is taken out before its handler runs, so the handler may schedule freely (even at
// the same instant: the new event has a later sequence number and fires after the others).
void Engine::dispatch_next() {
  const EventEntry e = queue_.top();
  queue_.pop();
  now_ = Time::ps(e.time_ps);
  e.handler->handle_event(e.tag);
  ++processed_;
}

void Engine::run(Time until) {
  stopped_ = false;
  while (!stopped_ && !queue_.empty() && queue_.top().time_ps <= until.ps()) dispatch_next();
}

bool Engine::step() {
  if (queue_.empty()) return false;
  dispatch_next();
  return true;
}

}  // namespace parallax

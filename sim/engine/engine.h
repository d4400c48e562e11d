// File: sim/engine/engine.h
// The discrete-event engine: a clock and a future-event list. It knows nothing of GPUs.
//
// A component that wants to be woken up implements EventHandler (one virtual call per event,
// htsim's EventSource shape) and schedules itself with a 64-bit tag of its choosing. There is no
// std::function and no allocation per event. Cancellation is the component's business: it keeps a
// generation counter in the tag and ignores stale wake-ups (lazy cancellation, as gem5 does).
//
//   class Pinger : public EventHandler {
//     void handle_event(uint64_t tag) override { engine.schedule_in(Time::us(1), *this, tag + 1); }
//   };
//
// Ordering: (time, priority, insertion sequence). Lower priority values fire first at equal times.
#pragma once

#include <cstdint>
#include <stdexcept>

#include "sim/engine/event_queue.h"
#include "sim/engine/sim_time.h"

namespace parallax {

class EventHandler {
 public:
  virtual void handle_event(uint64_t tag) = 0;

 protected:
  ~EventHandler() = default;
};

using Priority = uint8_t;
inline constexpr Priority kDefaultPriority = 128;

class Engine {
 public:
  Time now() const { return now_; }

  // Schedules `handler.handle_event(tag)` at absolute time `at` (>= now()).
  void schedule_at(Time at, EventHandler& handler, uint64_t tag = 0,
                   Priority priority = kDefaultPriority) {
    if (at < now_) throw std::logic_error("Engine::schedule_at: time is in the past");
    queue_.push(EventEntry{at.ps(), (uint64_t{priority} << 56) | (seq_++ & kSeqMask), &handler, tag});
  }
  void schedule_in(Time delay, EventHandler& handler, uint64_t tag = 0,
                   Priority priority = kDefaultPriority) {
    schedule_at(now_ + delay, handler, tag, priority);
  }

  // Runs until no event is left, stop() is called, or the next event lies after `until`.
  void run(Time until = Time::max());
  // Fires exactly one event; false if none is pending.
  bool step();
  void stop() { stopped_ = true; }

  uint64_t events_processed() const { return processed_; }
  size_t pending() const { return queue_.size(); }

 private:
  static constexpr uint64_t kSeqMask = (uint64_t{1} << 56) - 1;
  void dispatch_next();

  EventQueue queue_;
  Time now_;
  uint64_t seq_ = 0;
  uint64_t processed_ = 0;
  bool stopped_ = false;
};

}  // namespace parallax

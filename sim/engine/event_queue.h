// File: sim/engine/event_queue.h
// The future-event list: a 4-ary min-heap of plain entries ordered by (time, priority, sequence).
// The sequence number is the insertion count, so two events at the same time and priority come out
// in the order they were scheduled: that is what makes runs byte-deterministic.
//
// Entries are stored by value in one vector (no allocation per event once it has grown). The
// `replace_top` operation lets the engine turn "pop the event being dispatched, then push the one
// it schedules" into a single sift-down, the common case in a hold model.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/engine/sim_time.h"

namespace parallax {

class EventHandler;

struct EventEntry {
  int64_t time_ps;
  uint64_t order;  // priority in the top 8 bits, insertion sequence in the low 56 bits
  EventHandler* handler;
  uint64_t tag;

  bool before(const EventEntry& o) const {
    return time_ps < o.time_ps || (time_ps == o.time_ps && order < o.order);
  }
};

class EventQueue {
 public:
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  const EventEntry& top() const { return heap_.front(); }

  void push(const EventEntry& e);
  void pop();
  // Equivalent to pop() then push(e), with one sift-down.
  void replace_top(const EventEntry& e);
  void reserve(size_t n) { heap_.reserve(n); }
  void clear() { heap_.clear(); }

 private:
  void sift_up(size_t i, EventEntry e);
  void sift_down(size_t i, EventEntry e);
  std::vector<EventEntry> heap_;
};

}  // namespace parallax

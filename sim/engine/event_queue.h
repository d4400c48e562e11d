// File: sim/engine/event_queue.h
// The future-event list: a radix heap over integer picosecond times, ordered by
// (time, priority, insertion sequence). The sequence number is the insertion count, so two events
// at the same time and priority come out in the order they were scheduled: that is what makes runs
// byte-deterministic.
//
// Why a radix heap: simulated time never goes backwards, and for monotone integer keys a radix
// heap needs no comparisons to insert (O(1)) and moves each entry through at most 64 buckets over
// its life, against log(n) sift steps per operation in a binary heap. Bucket b > 0 holds entries
// whose time first differs from `last_` (the smallest time taken out) at bit b−1; bucket 0 holds
// the entries at exactly `last_`, kept as a small binary heap on (priority, sequence).
//
// Entries are stored by value in vectors (no allocation per event once they have grown).
// An insertion earlier than `last_` (only possible after Engine::run(until) stopped early and the
// caller schedules between the last fired event and the next one) rebuilds the heap: O(n), rare.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

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
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  // The earliest entry. Not const: it may move entries between buckets first.
  const EventEntry& top();
  void push(const EventEntry& e);
  void pop();
  void clear();

 private:
  static int bucket_of(uint64_t time, uint64_t last);
  void refill();
  void push_now(const EventEntry& e);  // into bucket 0 (time == last_)

  std::array<std::vector<EventEntry>, 65> buckets_;
  uint64_t last_ = 0;
  size_t size_ = 0;
};

}  // namespace parallax

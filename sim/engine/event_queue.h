// File: sim/engine/event_queue.h
// The future-event list: a radix heap over integer picosecond times, ordered by
// (time, priority, insertion sequence). The sequence number is the insertion count, so two events
// at the same time and priority come out in the order they were scheduled: that is what makes runs
// byte-deterministic.
//
// Why a radix heap: simulated time never goes backwards, and for monotone integer keys a radix
// heap needs no comparisons to insert (O(1)) and moves each entry through at most 64 buckets over
// its life, against log(n) sift steps per operation in a binary heap. Bucket i holds entries whose
// time first differs from `last_` at bit i; a bit mask says which buckets hold entries.
//
// The lowest level holds every entry at or before `last_`. When it runs dry, the first non-empty
// bucket is taken: if it holds at most 32 entries it is sorted whole into a run popped from the
// front (last_ moves to its latest time), which saves splitting it bucket by bucket down to single
// entries (the split was 58 % of the hold model's time); a larger one is split around its
// earliest time as usual. An insertion at or before `last_` goes into the run at its place, or,
// once the run has 64 live entries, into a binary heap on the same order, so that no insertion
// shifts more than that (many events at one instant stay O(log n)).
//
// Entries are stored by value in vectors (no allocation per event once they have grown).
// An insertion earlier than the last popped time (only possible after Engine::run(until) stopped
// early) lands in the lowest level like any other: every bucket holds later times.
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
  void refill();

  // The lowest level: every entry with time <= last_. Either a run sorted by (time, order) whose
  // live part starts at head_, or (heap_) a binary heap on the same order with head_ == 0.
  std::vector<EventEntry> low_;
  size_t head_ = 0;
  bool heap_ = false;
  // buckets_[i]: entries whose time first differs from last_ at bit i (all later than last_).
  std::array<std::vector<EventEntry>, 64> buckets_;
  uint64_t nonempty_ = 0;  // bit i set when buckets_[i] holds entries
  uint64_t last_ = 0;
  size_t size_ = 0;
};

}  // namespace parallax

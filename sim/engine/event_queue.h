// File: sim/engine/event_queue.h
// The future-event list over integer picosecond times (a radix heap and a ladder of rungs), ordered by
// (time, priority, insertion sequence). The sequence number is the insertion count, so two events
// at the same time and priority come out in the order they were scheduled: that is what makes runs
// byte-deterministic.
//
// Why this shape: simulated time never goes backwards. The far future is a radix heap over the
// integer times: an insertion needs no comparison (O(1)); bucket i holds the entries whose time
// first differs from `last_` at bit i, and a bit mask says which buckets hold entries. The near
// future is a ladder of rungs: when the first non-empty radix bucket holds more than 32 entries,
// its whole time range is split into 16 equal sub-buckets (a rung), and a sub-bucket that still
// holds more than 32 when its turn comes is split the same way into a finer rung. Insertions
// inside a rung's range go straight to their sub-bucket. An entry thus moves once per 4 bits of
// the range instead of once per split level of the radix heap (the splits were 45-58 % of the
// hold model's time); a small bucket or sub-bucket (at most 32 entries) is sorted whole.
//
// The lowest level holds every entry earlier than `bound_`: a sorted run popped from the front.
// An insertion before `bound_` goes into the run at its place, or, once the run has 64 live
// entries, into a binary heap on the same order, so that no insertion shifts more than that (many
// events at one instant stay O(log n)). An insertion earlier than the last popped time (only
// possible after Engine::run(until) stopped early) lands in the lowest level like any other.
//
// Entries are stored by value in vectors that keep their capacity (no allocation per event once
// they have grown). Times must be >= 0 (the engine's clock starts at 0 and never goes back).
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
  // The earliest entry. Not const: it may move entries between buckets first. top() and the
  // common case of pop() are inline: the engine calls them on every event.
  const EventEntry& top() {
    if (head_ == low_.size()) refill();
    return low_[head_];
  }
  void push(const EventEntry& e);
  void pop() {
    if (heap_ || head_ == low_.size()) {
      pop_slow();
      return;
    }
    ++head_;
    --size_;
  }
  void clear();

 private:
  void refill();
  void pop_slow();
  void push_low(const EventEntry& e);
  void open_rung(uint64_t base, int width_bits, std::vector<EventEntry>& src);

  // A rung splits one time range [base, base + 16 * 2^shift) into 16 sub-buckets of 2^shift
  // times (on the hold model 4 bits a rung measured a little faster than 3 or 5, and 6 slower:
  // fewer moves against more write streams). Rung r + 1 covers the sub-bucket of rung r that was taken last; times
  // before taken_end have been taken (into a finer rung or the lowest level).
  static constexpr int kRungBits = 4;
  struct Rung {
    uint64_t base = 0;
    int shift = 0;
    uint64_t taken_end = 0;
    uint32_t nonempty = 0;  // bit k set when subs[k] holds entries
    std::array<std::vector<EventEntry>, size_t{1} << kRungBits> subs;
  };

  // The lowest level: every entry with time < bound_. Either a run sorted by (time, order) whose
  // live part starts at head_, or (heap_) a binary heap on the same order with head_ == 0.
  std::vector<EventEntry> low_;
  size_t head_ = 0;
  bool heap_ = false;
  uint64_t bound_ = 1;
  // The rungs, outermost first: they hold the times in [bound_, outer_end_) (none when depth_ is
  // 0: then bound_ == outer_end_).
  // A bucket spans at most 2^62 times and each rung takes 4 bits off: 16 rungs at most.
  std::array<Rung, 16> rungs_;
  int depth_ = 0;
  uint64_t outer_end_ = 1;
  // buckets_[i]: entries whose time first differs from last_ at bit i (all at or after outer_end_).
  std::array<std::vector<EventEntry>, 64> buckets_;
  uint64_t nonempty_ = 0;  // bit i set when buckets_[i] holds entries
  uint64_t last_ = 0;
  size_t size_ = 0;
};

}  // namespace parallax

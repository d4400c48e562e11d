// File: sim/engine/event_queue.cpp
#include "sim/engine/event_queue.h"

#include <algorithm>
#include <bit>

namespace parallax {

namespace {
// Buckets at most this large are sorted into the lowest level whole instead of being split
// further (measured: 16-32 are equally fast on the hold model, 8 and 64+ slower).
constexpr size_t kSortWhole = 32;
// The sorted run takes insertions by shifting its tail; past this many live entries it becomes a
// heap, so that one insertion never moves more than this many entries.
constexpr size_t kRunLimit = 64;

bool fires_before(const EventEntry& a, const EventEntry& b) { return a.before(b); }
// std heap functions build a max-heap; "later" puts the earliest entry on top.
bool fires_after(const EventEntry& a, const EventEntry& b) { return b.before(a); }
}  // namespace

void EventQueue::push(const EventEntry& e) {
  const uint64_t t = static_cast<uint64_t>(e.time_ps);
  ++size_;
  if (t > last_) {
    const int i = 63 - std::countl_zero(t ^ last_);
    buckets_[i].push_back(e);
    nonempty_ |= uint64_t{1} << i;
    return;
  }
  if (heap_) {
    low_.push_back(e);
    std::push_heap(low_.begin(), low_.end(), fires_after);
  } else if (low_.size() - head_ < kRunLimit) {
    const auto live = low_.begin() + static_cast<std::ptrdiff_t>(head_);
    low_.insert(std::upper_bound(live, low_.end(), e, fires_before), e);
  } else {
    low_.erase(low_.begin(), low_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
    low_.push_back(e);
    std::make_heap(low_.begin(), low_.end(), fires_after);
    heap_ = true;
  }
}

// The lowest level is empty: take the first non-empty bucket. A small one becomes the sorted run
// whole (last_ moves to its latest time: every other bucket is later still). A large one is
// split around its earliest time, as a radix heap does.
void EventQueue::refill() {
  const int i = std::countr_zero(nonempty_);
  auto& src = buckets_[i];
  nonempty_ &= ~(uint64_t{1} << i);
  low_.clear();
  head_ = 0;
  heap_ = false;
  if (src.size() <= kSortWhole) {
    low_.swap(src);
    std::sort(low_.begin(), low_.end(), fires_before);
    last_ = static_cast<uint64_t>(low_.back().time_ps);
    return;
  }
  uint64_t m = static_cast<uint64_t>(src.front().time_ps);
  for (const EventEntry& e : src) m = std::min(m, static_cast<uint64_t>(e.time_ps));
  last_ = m;
  for (const EventEntry& e : src) {
    const uint64_t t = static_cast<uint64_t>(e.time_ps);
    if (t == m) {
      low_.push_back(e);
    } else {
      const int j = 63 - std::countl_zero(t ^ m);
      buckets_[j].push_back(e);
      nonempty_ |= uint64_t{1} << j;
    }
  }
  src.clear();
  if (low_.size() <= kRunLimit) {
    std::sort(low_.begin(), low_.end(), fires_before);
  } else {
    std::make_heap(low_.begin(), low_.end(), fires_after);
    heap_ = true;
  }
}

const EventEntry& EventQueue::top() {
  if (head_ == low_.size()) refill();
  return low_[head_];
}

void EventQueue::pop() {
  if (head_ == low_.size()) refill();
  if (heap_) {
    std::pop_heap(low_.begin(), low_.end(), fires_after);
    low_.pop_back();
  } else {
    ++head_;
  }
  --size_;
}

void EventQueue::clear() {
  for (auto& b : buckets_) b.clear();
  low_.clear();
  head_ = 0;
  heap_ = false;
  nonempty_ = 0;
  size_ = 0;
  last_ = 0;
}

}  // namespace parallax

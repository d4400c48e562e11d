// File: sim/engine/event_queue.cpp
#include "sim/engine/event_queue.h"

#include <algorithm>
#include <bit>

namespace parallax {

namespace {
// Bucket 0 is a min-heap on `order`; std heap functions want a "greater" comparison for that.
bool later(const EventEntry& a, const EventEntry& b) { return a.order > b.order; }
}  // namespace

int EventQueue::bucket_of(uint64_t time, uint64_t last) {
  return time == last ? 0 : 64 - std::countl_zero(time ^ last);
}

void EventQueue::push_now(const EventEntry& e) {
  auto& b0 = buckets_[0];
  b0.push_back(e);
  std::push_heap(b0.begin(), b0.end(), later);
}

void EventQueue::push(const EventEntry& e) {
  const uint64_t t = static_cast<uint64_t>(e.time_ps);
  if (t < last_) {
    // Rebuild around the new minimum (see the header); every bucket's invariant depends on last_.
    std::vector<EventEntry> all;
    all.reserve(size_);
    for (auto& b : buckets_) {
      all.insert(all.end(), b.begin(), b.end());
      b.clear();
    }
    last_ = t;
    for (const EventEntry& x : all) {
      const int b = bucket_of(static_cast<uint64_t>(x.time_ps), last_);
      if (b == 0) push_now(x);
      else buckets_[b].push_back(x);
    }
  }
  const int b = bucket_of(t, last_);
  if (b == 0) push_now(e);
  else buckets_[b].push_back(e);
  ++size_;
}

// Moves the entries of the first non-empty bucket down, around their smallest time.
void EventQueue::refill() {
  int b = 1;
  while (buckets_[b].empty()) ++b;
  auto& src = buckets_[b];
  uint64_t m = static_cast<uint64_t>(src.front().time_ps);
  for (const EventEntry& e : src) m = std::min(m, static_cast<uint64_t>(e.time_ps));
  last_ = m;
  for (const EventEntry& e : src) {
    const int nb = bucket_of(static_cast<uint64_t>(e.time_ps), last_);
    if (nb == 0) push_now(e);
    else buckets_[nb].push_back(e);
  }
  src.clear();
}

const EventEntry& EventQueue::top() {
  if (buckets_[0].empty()) refill();
  return buckets_[0].front();
}

void EventQueue::pop() {
  if (buckets_[0].empty()) refill();
  auto& b0 = buckets_[0];
  std::pop_heap(b0.begin(), b0.end(), later);
  b0.pop_back();
  --size_;
}

void EventQueue::clear() {
  for (auto& b : buckets_) b.clear();
  size_ = 0;
  last_ = 0;
}

}  // namespace parallax

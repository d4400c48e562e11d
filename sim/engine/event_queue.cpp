// File: sim/engine/event_queue.cpp
#include "sim/engine/event_queue.h"

namespace parallax {

namespace {
constexpr size_t kArity = 4;
}

void EventQueue::push(const EventEntry& e) {
  heap_.push_back(e);
  sift_up(heap_.size() - 1, e);
}

void EventQueue::pop() {
  EventEntry last = heap_.back();
  heap_.pop_back();
  if (!heap_.empty()) sift_down(0, last);
}

void EventQueue::replace_top(const EventEntry& e) { sift_down(0, e); }

void EventQueue::sift_up(size_t i, EventEntry e) {
  while (i > 0) {
    size_t parent = (i - 1) / kArity;
    if (!e.before(heap_[parent])) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = e;
}

void EventQueue::sift_down(size_t i, EventEntry e) {
  const size_t n = heap_.size();
  for (;;) {
    size_t first = i * kArity + 1;
    if (first >= n) break;
    size_t best = first;
    size_t end = first + kArity < n ? first + kArity : n;
    for (size_t c = first + 1; c < end; ++c)
      if (heap_[c].before(heap_[best])) best = c;
    if (!heap_[best].before(e)) break;
    heap_[i] = heap_[best];
    i = best;
  }
  heap_[i] = e;
}

}  // namespace parallax

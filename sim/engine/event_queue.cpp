// File: sim/engine/event_queue.cpp
#include "sim/engine/event_queue.h"

#include <algorithm>
#include <bit>

namespace parallax {

namespace {
// Buckets and sub-buckets at most this large are sorted into the lowest level whole instead of
// being spread further (measured on the hold model: 16-32 are equally fast, 8 and 64+ slower).
constexpr size_t kSortWhole = 32;
// The sorted run takes insertions by shifting its tail; past this many live entries it becomes a
// heap, so that one insertion never moves more than this many entries.
constexpr size_t kRunLimit = 64;

// Function objects rather than functions, so that std::sort and the heap calls inline them (3 %
// fewer instructions on the hold model at 1e5 pending).
constexpr auto fires_before = [](const EventEntry& a, const EventEntry& b) { return a.before(b); };
// std heap functions build a max-heap; "later" puts the earliest entry on top.
constexpr auto fires_after = [](const EventEntry& a, const EventEntry& b) { return b.before(a); };
}  // namespace

void EventQueue::push(const EventEntry& e) {
  const uint64_t t = static_cast<uint64_t>(e.time_ps);
  ++size_;
  if (t >= outer_end_) {
    const int i = 63 - std::countl_zero(t ^ last_);
    buckets_[i].push_back(e);
    nonempty_ |= uint64_t{1} << i;
    return;
  }
  for (int r = 0; r < depth_; ++r) {
    Rung& rung = rungs_[static_cast<size_t>(r)];
    if (t >= rung.taken_end) {
      const auto k = static_cast<unsigned>((t - rung.base) >> rung.shift);
      rung.subs[k].push_back(e);
      rung.nonempty |= uint32_t{1} << k;
      return;
    }
  }
  push_low(e);
}

void EventQueue::push_low(const EventEntry& e) {
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

// Opens rung `depth_` over [base, base + 2^width_bits) and spreads `src` over it.
void EventQueue::open_rung(uint64_t base, int width_bits, std::vector<EventEntry>& src) {
  Rung& rung = rungs_[static_cast<size_t>(depth_++)];
  rung.base = base;
  rung.shift = std::max(width_bits - kRungBits, 0);
  rung.taken_end = base;
  rung.nonempty = 0;
  for (const EventEntry& e : src) {
    const auto k = static_cast<unsigned>((static_cast<uint64_t>(e.time_ps) - base) >> rung.shift);
    rung.subs[k].push_back(e);
    rung.nonempty |= uint32_t{1} << k;
  }
  src.clear();
}

// The lowest level is empty. Take the innermost rung's first non-empty sub-bucket: a small one
// (or one of a single time) is sorted whole into the run, a larger one is spread over a finer
// rung. An empty rung is closed. Without rungs, take the first non-empty radix bucket: a small one
// is sorted whole (last_ moves to its latest time: every other bucket is later still), a larger
// one is spread over a first rung covering the bucket's whole range, and last_ moves to the end
// of that range (later buckets stay valid relative to any time in it).
void EventQueue::refill() {
  low_.clear();
  head_ = 0;
  heap_ = false;
  for (;;) {
    if (depth_ > 0) {
      Rung& rung = rungs_[static_cast<size_t>(depth_ - 1)];
      if (rung.nonempty == 0) {
        if (--depth_ == 0) bound_ = outer_end_;
        continue;
      }
      const int k = std::countr_zero(rung.nonempty);
      rung.nonempty &= rung.nonempty - 1;
      std::vector<EventEntry>& sub = rung.subs[static_cast<size_t>(k)];
      const uint64_t start = rung.base + (uint64_t{static_cast<unsigned>(k)} << rung.shift);
      rung.taken_end = start + (uint64_t{1} << rung.shift);
      if (sub.size() <= kSortWhole || rung.shift == 0) {
        low_.assign(sub.begin(), sub.end());  // copied, not swapped: each vector keeps its capacity
        sub.clear();
        std::sort(low_.begin(), low_.end(), fires_before);
        bound_ = rung.taken_end;
        return;
      }
      bound_ = start;
      open_rung(start, rung.shift, sub);
      continue;
    }
    const int i = std::countr_zero(nonempty_);
    std::vector<EventEntry>& src = buckets_[static_cast<size_t>(i)];
    nonempty_ &= nonempty_ - 1;
    if (src.size() <= kSortWhole) {
      low_.assign(src.begin(), src.end());
      src.clear();
      std::sort(low_.begin(), low_.end(), fires_before);
      last_ = static_cast<uint64_t>(low_.back().time_ps);
      bound_ = last_ + 1;
      outer_end_ = bound_;
      return;
    }
    // Bucket i's range: the times that agree with last_ above bit i and have bit i set (times are
    // >= 0, so i <= 62 and the end does not overflow).
    const uint64_t start = ((last_ >> i) | 1) << i;
    outer_end_ = start + (uint64_t{1} << i);
    last_ = outer_end_ - 1;
    bound_ = start;
    open_rung(start, i, src);
  }
}

void EventQueue::pop_slow() {
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
  for (Rung& rung : rungs_)
    for (auto& s : rung.subs) s.clear();
  depth_ = 0;
  low_.clear();
  head_ = 0;
  heap_ = false;
  nonempty_ = 0;
  size_ = 0;
  last_ = 0;
  bound_ = 1;
  outer_end_ = 1;
}

}  // namespace parallax

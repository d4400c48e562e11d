// File: sim/platform/completion_calendar.h
// Ids by integer key (the solver's groups by the picosecond of their next completion), kept as
// one bucket per key with a heap over the buckets. Many ids often share a key: a ring step's
// hops all finish at one picosecond, and so do the copies of any step that starts together on
// equal links. Then a set() is an append to the bucket the last set() used, and take_upto()
// takes whole buckets, where a heap with an entry per id sifted each one in and out (ring
// P=512: 180 instructions a copy, 14 % of the run; docs/performance.md "A bucket per instant").
// With every key distinct (contended transfers) a bucket holds one id and is re-keyed in place:
// one sift, as the heap of ids did.
//
// Order: take_upto() gives (key, id) ascending, the order repeated pops of an IndexedHeap with
// the same entries give, whatever order the ids came in. Each id's place is stored by the caller
// (PositionOf returns a CalendarPlace&, bucket -1 when absent), as IndexedHeap does.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/platform/indexed_heap.h"

namespace parallax {

struct CalendarPlace {
  int32_t bucket = -1;
  uint32_t slot = 0;
};

template <class PositionOf>
class CompletionCalendar {
 public:
  explicit CompletionCalendar(PositionOf position_of = {}) : pos_(position_of) {}
  // The buckets' heap points back into this object.
  CompletionCalendar(const CompletionCalendar&) = delete;
  CompletionCalendar& operator=(const CompletionCalendar&) = delete;

  bool empty() const { return heap_.empty(); }
  int64_t top_key() const { return heap_.top_key(); }

  // Inserts id with `key`, or moves it there.
  void set(uint32_t id, int64_t key) {
    CalendarPlace& p = pos_(id);
    if (p.bucket >= 0) {
      Bucket& b = buckets_[static_cast<size_t>(p.bucket)];
      if (b.key == key) return;
      if (b.ids.size() == 1 && !matches_last(key)) {  // alone in its bucket: re-key the bucket
        b.key = key;
        heap_.set(static_cast<uint32_t>(p.bucket), key);
        last_ = p.bucket;
        return;
      }
      detach(p);
    }
    const int32_t b = matches_last(key) ? last_ : new_bucket(key);
    Bucket& bucket = buckets_[static_cast<size_t>(b)];
    p.bucket = b;
    p.slot = static_cast<uint32_t>(bucket.ids.size());
    bucket.ids.push_back(id);
    last_ = b;
  }

  void remove(uint32_t id) {
    CalendarPlace& p = pos_(id);
    if (p.bucket >= 0) detach(p);
  }

  // Removes every id with key <= bound and appends them to `out`, (key, id) ascending.
  void take_upto(int64_t bound, std::vector<uint32_t>& out) {
    size_t run_begin = out.size();
    int64_t run_key = 0;
    bool first = true;
    while (!heap_.empty() && heap_.top_key() <= bound) {
      const uint32_t b = heap_.top_id();
      heap_.pop();
      Bucket& bucket = buckets_[b];
      if (first || bucket.key != run_key) {  // a new key: the ids of the last one are complete
        sort_ids(out, run_begin);
        run_begin = out.size();
        run_key = bucket.key;
        first = false;
      }
      for (const uint32_t id : bucket.ids) {
        pos_(id).bucket = -1;
        out.push_back(id);
      }
      release(static_cast<int32_t>(b));
    }
    sort_ids(out, run_begin);
  }

 private:
  struct Bucket {
    int64_t key = 0;
    std::vector<uint32_t> ids;  // unordered (swap-remove); ascending in a ring step
    int32_t heap_pos = -1;
  };
  struct BucketInHeap {
    CompletionCalendar* calendar = nullptr;
    int32_t& operator()(uint32_t b) const { return calendar->buckets_[b].heap_pos; }
  };

  bool matches_last(int64_t key) const {
    return last_ >= 0 && buckets_[static_cast<size_t>(last_)].key == key;
  }
  int32_t new_bucket(int64_t key) {
    int32_t b;
    if (!free_.empty()) {
      b = free_.back();
      free_.pop_back();
    } else {
      b = static_cast<int32_t>(buckets_.size());
      buckets_.emplace_back();
    }
    buckets_[static_cast<size_t>(b)].key = key;
    heap_.set(static_cast<uint32_t>(b), key);
    return b;
  }
  void release(int32_t b) {  // an emptied bucket (out of the heap already, or taken out here)
    Bucket& bucket = buckets_[static_cast<size_t>(b)];
    bucket.ids.clear();  // (keeps its storage for the next key)
    heap_.remove(static_cast<uint32_t>(b));
    free_.push_back(b);
    if (last_ == b) last_ = -1;
  }
  void detach(CalendarPlace& p) {
    const int32_t b = p.bucket;
    std::vector<uint32_t>& ids = buckets_[static_cast<size_t>(b)].ids;
    const uint32_t moved = ids.back();
    ids[p.slot] = moved;
    pos_(moved).slot = p.slot;
    ids.pop_back();
    p.bucket = -1;
    if (ids.empty()) release(b);
  }
  // The ids of one key, appended from out[begin] on, in ascending order (mostly already).
  static void sort_ids(std::vector<uint32_t>& out, size_t begin) {
    const auto from = out.begin() + static_cast<std::ptrdiff_t>(begin);
    if (!std::is_sorted(from, out.end())) std::sort(from, out.end());
  }

  std::vector<Bucket> buckets_;
  std::vector<int32_t> free_;
  int32_t last_ = -1;  // the bucket of the last set(), -1 when released
  IndexedHeap<int64_t, BucketInHeap> heap_{BucketInHeap{this}};  // buckets by key
  PositionOf pos_;
};

}  // namespace parallax

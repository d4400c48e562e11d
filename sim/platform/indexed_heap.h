// File: sim/platform/indexed_heap.h
// A 4-ary min-heap of (key, id) pairs that can change or remove the entry of any id in
// O(log n): each id's position is stored by the caller (PositionOf returns an int32_t& that the
// heap keeps up to date; -1 = not in the heap). Ties on the key break by id, so the order is
// fully deterministic. The solver uses it for classes in a group by first finish, constraints by
// fair share during progressive filling, and the buckets of its completion calendar.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace parallax {

template <class Key, class PositionOf>
class IndexedHeap {
 public:
  explicit IndexedHeap(PositionOf position_of = {}) : pos_(position_of) {}

  bool empty() const { return items_.empty(); }
  size_t size() const { return items_.size(); }
  uint32_t top_id() const { return items_.front().second; }
  Key top_key() const { return items_.front().first; }
  bool contains(uint32_t id) { return pos_(id) >= 0; }
  // Every entry (key, id), in heap order (not sorted).
  const std::vector<std::pair<Key, uint32_t>>& items() const { return items_; }

  // Inserts id, or changes its key.
  void set(uint32_t id, Key key) {
    int32_t& p = pos_(id);
    if (p < 0) {
      p = static_cast<int32_t>(items_.size());
      items_.emplace_back(key, id);
      up(items_.size() - 1);
      return;
    }
    const size_t i = static_cast<size_t>(p);
    const Key old = items_[i].first;
    if (key == old) return;
    items_[i].first = key;
    if (key < old) up(i);
    else down(i);
  }

  void remove(uint32_t id) {
    int32_t& p = pos_(id);
    if (p < 0) return;
    const size_t i = static_cast<size_t>(p);
    p = -1;
    const auto last = items_.back();
    items_.pop_back();
    if (i == items_.size()) return;
    items_[i] = last;
    pos_(last.second) = static_cast<int32_t>(i);
    up(i);
    down(static_cast<size_t>(pos_(last.second)));
  }

  void pop() { remove(top_id()); }

  // Bulk building: append ids not in the heap, then heapify() once (O(n) instead of n sifts).
  // Until heapify() the heap order does not hold: no other call in between.
  void append(uint32_t id, Key key) {
    pos_(id) = static_cast<int32_t>(items_.size());
    items_.emplace_back(key, id);
  }
  void heapify() {
    if (items_.size() < 2) return;
    for (size_t i = (items_.size() - 2) / kArity + 1; i-- > 0;) down(i);  // every parent, last first
  }

  void clear() {
    for (const auto& item : items_) pos_(item.second) = -1;
    items_.clear();
  }

 private:
  static constexpr size_t kArity = 4;
  static bool less(const std::pair<Key, uint32_t>& a, const std::pair<Key, uint32_t>& b) {
    return a.first < b.first || (a.first == b.first && a.second < b.second);
  }
  void up(size_t i) {
    const auto item = items_[i];
    while (i > 0) {
      const size_t parent = (i - 1) / kArity;
      if (!less(item, items_[parent])) break;
      items_[i] = items_[parent];
      pos_(items_[i].second) = static_cast<int32_t>(i);
      i = parent;
    }
    items_[i] = item;
    pos_(item.second) = static_cast<int32_t>(i);
  }
  void down(size_t i) {
    const auto item = items_[i];
    const size_t n = items_.size();
    for (;;) {
      const size_t first = kArity * i + 1;
      if (first >= n) break;
      size_t best = first;
      const size_t end = first + kArity < n ? first + kArity : n;
      for (size_t c = first + 1; c < end; ++c)
        if (less(items_[c], items_[best])) best = c;
      if (!less(items_[best], item)) break;
      items_[i] = items_[best];
      pos_(items_[i].second) = static_cast<int32_t>(i);
      i = best;
    }
    items_[i] = item;
    pos_(item.second) = static_cast<int32_t>(i);
  }

  std::vector<std::pair<Key, uint32_t>> items_;
  PositionOf pos_;
};

}  // namespace parallax

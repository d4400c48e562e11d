// File: sim/platform/indexed_heap.h
// A 4-ary min-heap of (key, id) pairs that can change or remove the entry of any id in
// O(log n): each id's position is stored by the caller (PositionOf returns an int32_t& that the
// heap keeps up to date; -1 = not in the heap). Ties on the key break by id, so the order is
// fully deterministic. The solver uses it three times: classes in a group by first finish,
// groups by next completion, and constraints by fair share during progressive filling.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace parallax {

// take_upto()'s working space, kept by its caller: only the solver's heap of groups takes
// entries this way, and in every other heap (one a group) the two vectors were 48 idle bytes.
struct HeapTakeScratch {
  std::vector<uint32_t> taken;            // positions
  std::vector<unsigned __int128> order;   // (key - top, id)
};

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

  // Removes every entry with key <= bound and appends their ids to `out` in the order repeated
  // pops give ((key, id) ascending), for less: each pop sifts an entry down the whole heap, and a
  // ring step ends hundreds of flows at one instant. The entries taken are a subtree at the root
  // (no entry is below its parent): a breadth-first walk finds them in increasing positions, and
  // removing them from the last one back never moves another taken one. Then (key - top, id),
  // packed in one integer, is sorted; a merge sort, since entries inserted in about id order
  // come out nearly sorted, where introsort's pivots do badly (3x the instructions at 512).
  // When every taken key is the top's (a ring step: its hops all finish at one picosecond) the
  // order is by id alone, and ids inserted in increasing order sit in the array already sorted:
  // a check of the ids replaces the sort (ring P=512: 174 instructions a copy in the sort).
  void take_upto(Key bound, std::vector<uint32_t>& out, HeapTakeScratch& scratch)
    requires std::is_integral_v<Key>
  {
    if (items_.empty() || bound < items_.front().first) return;
    bool more = false;  // the usual case away from ring steps: the top alone, one pop
    for (size_t c = 1; c <= kArity && c < items_.size(); ++c) more |= !(bound < items_[c].first);
    if (!more) {
      out.push_back(items_.front().second);
      pop();
      return;
    }
    const Key top = items_.front().first;
    bool one_key = true;
    scratch.taken.assign(1, 0);
    for (size_t q = 0; q < scratch.taken.size(); ++q) {
      const size_t first = kArity * scratch.taken[q] + 1;
      for (size_t c = first; c < first + kArity && c < items_.size(); ++c)
        if (!(bound < items_[c].first)) {
          scratch.taken.push_back(static_cast<uint32_t>(c));
          one_key &= items_[c].first == top;
        }
    }
    if (one_key) return take_one_key(out, scratch.taken);
    scratch.order.clear();
    for (const uint32_t i : scratch.taken) {
      const auto since_top = static_cast<unsigned __int128>(static_cast<uint64_t>(items_[i].first - top));
      scratch.order.push_back(since_top << 32 | items_[i].second);
    }
    for (size_t t = scratch.taken.size(); t-- > 0;) remove(items_[scratch.taken[t]].second);
    std::stable_sort(scratch.order.begin(), scratch.order.end());
    for (const unsigned __int128 o : scratch.order) out.push_back(static_cast<uint32_t>(o));
  }

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
  // take_upto() when every entry in `taken` has the top's key: ids ascending.
  void take_one_key(std::vector<uint32_t>& out, const std::vector<uint32_t>& taken) {
    const size_t start = out.size();
    for (const uint32_t i : taken) out.push_back(items_[i].second);
    for (size_t t = taken.size(); t-- > 0;) remove(items_[taken[t]].second);
    const auto ids = out.begin() + static_cast<std::ptrdiff_t>(start);
    if (!std::is_sorted(ids, out.end())) std::sort(ids, out.end());
  }
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

// File: sim/policies/serverless/request_queue_test.cpp
#include "sim/policies/serverless/request_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

namespace parallax {
namespace {

std::vector<uint32_t> order(const RequestQueue& q) { return q.dispatch_order(); }

// The queue's node pool: a freed node is the next one handed out, and a set drawing on the pool
// holds what a plain std::set holds through random inserts and erases (two sets sharing it).
TEST(NodePool, ReusesFreedNodesAndKeepsSetsIntact) {
  NodePool pool;
  void* a = pool.take(48);
  void* b = pool.take(48);
  EXPECT_NE(a, b);
  pool.give(a);
  EXPECT_EQ(pool.take(40), a);
  EXPECT_THROW(pool.take(4096), std::logic_error);
  pool.give(a);
  pool.give(b);
  using PooledSet = std::set<uint64_t, std::less<uint64_t>, PoolAllocator<uint64_t>>;
  NodePool shared;
  PooledSet x{PoolAllocator<uint64_t>(shared)}, y{PoolAllocator<uint64_t>(shared)};
  std::set<uint64_t> rx, ry;
  uint64_t state = 7;
  for (int i = 0; i < 20000; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const uint64_t v = (state >> 33) % 500;
    PooledSet& s = (state >> 20) % 2 == 0 ? x : y;
    std::set<uint64_t>& r = &s == &x ? rx : ry;
    if ((state >> 40) % 3 == 0) {
      s.erase(v);
      r.erase(v);
    } else {
      s.insert(v);
      r.insert(v);
    }
  }
  EXPECT_TRUE(std::equal(x.begin(), x.end(), rx.begin(), rx.end()));
  EXPECT_TRUE(std::equal(y.begin(), y.end(), ry.begin(), ry.end()));
  EXPECT_GT(rx.size() + ry.size(), 256u);  // more than one chunk
}

TEST(RequestQueue, FifoIsArrivalOrder) {
  RequestQueue q(QueueKind::fifo, 2, 0.98);
  q.push(0, 1, 0);
  q.push(1, 0, 1);
  q.push(2, 1, 2);
  q.resort();
  EXPECT_EQ(order(q), (std::vector<uint32_t>{0, 1, 2}));
  q.erase(1);
  EXPECT_EQ(order(q), (std::vector<uint32_t>{0, 2}));
}

TEST(RequestQueue, RrcIsTheRequiredRequestCount) {
  // n = 100, m = 97, p = 0.98: (98 - 97) / 0.02 = 50 more requests, all meeting, bring it to 98 %.
  RequestQueue q(QueueKind::rrc, 1, 0.98);
  for (int i = 0; i < 100; ++i) q.record(0, 0.01, i < 97);
  EXPECT_NEAR(q.rrc(0), 50, 1e-9);
  EXPECT_NEAR(q.metric(0), 0.01 * 1, 1e-12);  // L * (p n - m)
}

// The header's worked example: f0 (n 10, m 5, L 0.2 s): L*RRC = 48; f1 (n 10, m 10, L 0.01 s): -0.1.
RequestQueue worked_example() {
  RequestQueue q(QueueKind::rrc, 2, 0.98);
  for (int i = 0; i < 10; ++i) {
    q.record(0, 0.2, i % 2 == 0);
    q.record(1, 0.01, true);
  }
  return q;
}

TEST(RequestQueue, AtAlphaOneEveryFunctionIsHighAndTheFurthestBehindGoesFirst) {
  RequestQueue q = worked_example();
  q.push(0, 1, 0);
  q.push(1, 0, 1);
  q.push(2, 1, 2);
  q.resort();
  EXPECT_TRUE(q.high_priority(0));
  EXPECT_TRUE(q.high_priority(1));
  // High queue: larger metric first (f0: 0.2*4.8 = 0.96 > f1: 0.01*(-0.2) = -0.002), arrival order among equals.
  EXPECT_EQ(order(q), (std::vector<uint32_t>{1, 0, 2}));
}

TEST(RequestQueue, TheCumulativeThresholdDemotesTheFunctionsPastIt) {
  // alpha 0.5: threshold 0.5 * 48 = 24 < 48, so f0 is low; f1 (negative) stays high.
  RequestQueue q = worked_example();
  q.set_alpha(0.5);
  q.push(0, 0, 0);
  q.push(1, 1, 1);
  q.push(2, 0, 2);
  q.resort();
  EXPECT_FALSE(q.high_priority(0));
  EXPECT_TRUE(q.high_priority(1));
  // High first; within the low queue equal metrics go newest first (the reference's insertion).
  EXPECT_EQ(order(q), (std::vector<uint32_t>{1, 2, 0}));
}

TEST(RequestQueue, AlphaHalvesWhenTheCompliantShareFallsAndRecovers) {
  RequestQueue q(QueueKind::rrc, 2, 0.98);
  q.record(0, 0.01, true);
  q.record(1, 0.01, true);
  for (int i = 0; i < 20; ++i) q.resort();  // r = 1, r0 = 0 -> alpha = min(1, 2) = 1, r0 = 1
  EXPECT_DOUBLE_EQ(q.alpha(), 1.0);
  q.record(1, 0.5, false);                  // f1 now misses: r = 0.5, change -50 %
  for (int i = 0; i < 20; ++i) q.resort();
  EXPECT_DOUBLE_EQ(q.alpha(), 0.5);
  for (int i = 0; i < 20; ++i) q.resort();  // no change: alpha * 1.01
  EXPECT_DOUBLE_EQ(q.alpha(), 0.505);
}

// heads() holds each function's first request in dispatch order and next_of walks one function's
// requests, through pushes, erases and a resort that changes the order.
TEST(RequestQueue, HeadsAndNextOfFollowEachFunctionsOrder) {
  RequestQueue q = worked_example();
  for (uint32_t r = 0; r < 9; ++r) q.push(r, r % 3 == 0 ? 0 : 1, r);
  const auto check = [&q] {
    std::vector<uint32_t> merged;  // merge of the functions' own walks, by key
    std::vector<RequestQueue::Key> walk;
    for (const RequestQueue::Key& head : q.heads())
      for (std::optional<RequestQueue::Key> k = head; k; k = q.next_of(q.function_of(k->request), &*k)) walk.push_back(*k);
    std::sort(walk.begin(), walk.end());
    for (const RequestQueue::Key& k : walk) merged.push_back(k.request);
    EXPECT_EQ(merged, q.dispatch_order());
    EXPECT_EQ(merged.size(), q.size());
    EXPECT_LE(q.heads().size(), 2u);
  };
  check();
  q.erase(3);
  q.erase(1);
  check();
  q.set_alpha(0.5);
  q.resort();
  check();
  EXPECT_EQ(q.dispatch_order(), (std::vector<uint32_t>{2, 4, 5, 7, 8, 6, 0}));  // f1 high; f0 low, newest first
  for (uint32_t r : {2u, 4u, 5u, 7u, 8u, 6u, 0u}) q.erase(r);
  EXPECT_TRUE(q.empty());
  EXPECT_TRUE(q.heads().empty());
}

// Against the plain definition (every queued request keyed at its push and re-keyed at every
// resort, in one ordered set), through random pushes, erases of any request, finishes and
// resorts with alpha moving: the same dispatch order, and heads()/next_of walk it. The classes
// against the plain ranking (every function with history ranked at every resort, sums in function
// and rank order), which the resort reaches by moving only the functions recorded since the last.
TEST(RequestQueue, MatchesTheFullRekeyingDefinition) {
  constexpr uint32_t kFunctions = 5;
  constexpr double kP = 0.9;
  RequestQueue q(QueueKind::rrc, kFunctions, kP);
  std::vector<bool> expected_high(kFunctions, true);
  std::vector<uint64_t> finished(kFunctions, 0);
  const auto rank_all = [&](double alpha) {
    std::vector<std::pair<double, uint32_t>> ranked;
    double positive_sum = 0;
    for (uint32_t f = 0; f < kFunctions; ++f) {
      if (finished[f] == 0) continue;
      const double count = q.metric(f) / (1 - kP);
      if (count > 0) {
        ranked.push_back({count, f});
        positive_sum += count;
      } else {
        expected_high[f] = true;
      }
    }
    std::sort(ranked.begin(), ranked.end());
    double running = 0;
    bool over = false;
    for (const auto& [count, f] : ranked) {
      if (!over) {
        running += count;
        over = running > alpha * positive_sum;
      }
      expected_high[f] = !over;
    }
  };
  std::map<uint32_t, uint32_t> queued;  // request -> function
  std::map<uint32_t, RequestQueue::Key> reference;
  const auto key_now = [&](uint32_t r, uint32_t f) {
    const double m = q.metric(f);
    const auto seq = static_cast<int64_t>(r);
    return q.high_priority(f) ? RequestQueue::Key{0, -m, seq, r} : RequestQueue::Key{1, m, -seq, r};
  };
  uint64_t state = 12345;
  const auto draw = [&state](uint32_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>((state >> 33) % n);
  };
  uint32_t next_request = 0;
  for (int step = 0; step < 4000; ++step) {
    const uint32_t what = draw(10);
    if (what < 5) {
      const uint32_t f = draw(kFunctions);
      q.push(next_request, f, next_request);
      queued[next_request] = f;
      reference[next_request] = key_now(next_request, f);
      ++next_request;
    } else if (what < 7 && !queued.empty()) {
      auto it = queued.begin();
      std::advance(it, draw(static_cast<uint32_t>(queued.size())));
      q.erase(it->first);
      reference.erase(it->first);
      queued.erase(it);
    } else if (what < 9) {
      const uint32_t f = draw(kFunctions);
      q.record(f, 0.01 * (1 + draw(50)), draw(3) != 0);
      ++finished[f];
    } else {
      if (draw(4) == 0) q.set_alpha(0.25 + 0.25 * draw(4));
      rank_all(q.alpha());  // the alpha the resort classifies with (it adapts afterwards)
      q.resort();
      for (uint32_t f = 0; f < kFunctions; ++f) ASSERT_EQ(q.high_priority(f), expected_high[f]) << "step " << step << ", function " << f;
      for (auto& [r, k] : reference) k = key_now(r, queued.at(r));
    }
    std::vector<RequestQueue::Key> sorted;
    for (const auto& [r, k] : reference) sorted.push_back(k);
    std::sort(sorted.begin(), sorted.end());
    std::vector<uint32_t> expected;
    for (const RequestQueue::Key& k : sorted) expected.push_back(k.request);
    ASSERT_EQ(q.dispatch_order(), expected) << "step " << step;
    ASSERT_EQ(q.size(), expected.size());
    std::vector<RequestQueue::Key> walked;
    for (const RequestQueue::Key& head : q.heads())
      for (std::optional<RequestQueue::Key> k = head; k; k = q.next_of(q.function_of(k->request), &*k)) walked.push_back(*k);
    std::sort(walked.begin(), walked.end());
    ASSERT_EQ(walked, sorted) << "step " << step;
  }
}

// The FIFO queue's per-function vectors (erased entries left dead until the front or a compaction)
// against one ordered set of (0, 0, sequence, request) keys, through pushes that reuse the ids of
// erased requests, pushes of older sequences (keep-alive releases requests that waited), erases
// of any request and next_of past any key, queued or just erased, of any function.
TEST(RequestQueue, FifoMatchesOneOrderedSet) {
  constexpr uint32_t kFunctions = 4;
  RequestQueue q(QueueKind::fifo, kFunctions, 0.98);
  std::set<RequestQueue::Key> reference;
  std::map<uint32_t, uint32_t> function_of;  // queued request -> function
  std::vector<uint32_t> free_ids;
  std::vector<uint64_t> held_back;  // sequences drawn but pushed later
  uint32_t next_id = 0;
  uint64_t next_sequence = 0;
  uint64_t state = 777;
  const auto draw = [&state](uint32_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>((state >> 33) % n);
  };
  std::optional<RequestQueue::Key> last_erased;
  for (int step = 0; step < 6000; ++step) {
    const uint32_t what = draw(10);
    if (what < 5) {
      uint64_t sequence = next_sequence++;
      if (draw(8) == 0) {
        held_back.push_back(sequence);  // pushed at a later step, behind newer ones
        continue;
      }
      if (!held_back.empty() && draw(3) == 0) {
        held_back.push_back(sequence);
        sequence = held_back.front();
        held_back.erase(held_back.begin());
      }
      uint32_t id = next_id;
      if (!free_ids.empty() && draw(2) == 0) {
        id = free_ids.back();
        free_ids.pop_back();
      } else {
        ++next_id;
      }
      const uint32_t f = draw(kFunctions);
      q.push(id, f, sequence);
      function_of[id] = f;
      reference.insert({0, 0, static_cast<int64_t>(sequence), id});
    } else if (what < 9 && !reference.empty()) {
      auto it = reference.begin();
      // Mostly near the front, as dispatch takes them, sometimes anywhere.
      std::advance(it, draw(draw(4) == 0 ? static_cast<uint32_t>(reference.size()) : std::min<uint32_t>(3, static_cast<uint32_t>(reference.size()))));
      last_erased = *it;
      q.erase(it->request);
      function_of.erase(it->request);
      free_ids.push_back(it->request);
      reference.erase(it);
    }
    std::vector<uint32_t> expected;
    for (const RequestQueue::Key& k : reference) expected.push_back(k.request);
    ASSERT_EQ(q.dispatch_order(), expected) << "step " << step;
    ASSERT_EQ(q.size(), reference.size());
    std::vector<RequestQueue::Key> heads;
    for (uint32_t f = 0; f < kFunctions; ++f) {
      const auto first = std::find_if(reference.begin(), reference.end(), [&](const RequestQueue::Key& k) { return function_of.at(k.request) == f; });
      if (first != reference.end()) heads.push_back(*first);
    }
    std::sort(heads.begin(), heads.end());
    ASSERT_EQ(std::vector<RequestQueue::Key>(q.heads().begin(), q.heads().end()), heads) << "step " << step;
    std::vector<RequestQueue::Key> afters(reference.begin(), reference.end());
    if (last_erased) afters.push_back(*last_erased);
    if (afters.empty()) continue;
    const RequestQueue::Key after = afters[draw(static_cast<uint32_t>(afters.size()))];
    for (uint32_t f = 0; f < kFunctions; ++f) {
      std::optional<RequestQueue::Key> want;
      for (auto it = reference.upper_bound(after); it != reference.end(); ++it)
        if (function_of.at(it->request) == f) {
          want = *it;
          break;
        }
      ASSERT_EQ(q.next_of(f, &after), want) << "step " << step << ", function " << f;
    }
  }
}

}  // namespace
}  // namespace parallax

// File: sim/engine/engine_test.cpp
#include "sim/engine/engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/engine/exponential_ziggurat.h"
#include "sim/engine/hold_model.h"
#include "sim/engine/random_streams.h"

namespace parallax {
namespace {

struct Recorder final : EventHandler {
  std::vector<uint64_t> fired;
  std::vector<Time> when;
  Engine* engine = nullptr;
  void handle_event(uint64_t tag) override {
    fired.push_back(tag);
    when.push_back(engine->now());
  }
};

TEST(Engine, FiresInTimeOrder) {
  Engine e;
  Recorder r;
  r.engine = &e;
  e.schedule_at(Time::ns(30), r, 3);
  e.schedule_at(Time::ns(10), r, 1);
  e.schedule_at(Time::ns(20), r, 2);
  e.run();
  EXPECT_EQ(r.fired, (std::vector<uint64_t>{1, 2, 3}));
  EXPECT_EQ(r.when.back(), Time::ns(30));
  EXPECT_EQ(e.events_processed(), 3u);
}

TEST(Engine, TiesBreakByInsertionOrder) {
  Engine e;
  Recorder r;
  r.engine = &e;
  for (uint64_t i = 0; i < 1000; ++i) e.schedule_at(Time::us(5), r, i);
  e.run();
  ASSERT_EQ(r.fired.size(), 1000u);
  for (uint64_t i = 0; i < 1000; ++i) EXPECT_EQ(r.fired[i], i);
}

TEST(Engine, TiesBreakByPriorityBeforeSequence) {
  Engine e;
  Recorder r;
  r.engine = &e;
  e.schedule_at(Time::us(1), r, 1, 200);
  e.schedule_at(Time::us(1), r, 2, 10);
  e.schedule_at(Time::us(1), r, 3, 200);
  e.schedule_at(Time::us(1), r, 4, 10);
  e.run();
  EXPECT_EQ(r.fired, (std::vector<uint64_t>{2, 4, 1, 3}));
}

// An event scheduled at the current time by the handler being dispatched runs after every event
// already pending at that time (it has a later sequence number).
struct SelfScheduler final : EventHandler {
  Engine* engine = nullptr;
  std::vector<uint64_t> fired;
  void handle_event(uint64_t tag) override {
    fired.push_back(tag);
    if (tag == 0) engine->schedule_in(Time::zero(), *this, 99);
  }
};

TEST(Engine, ZeroDelayRescheduleKeepsFifo) {
  Engine e;
  SelfScheduler s;
  s.engine = &e;
  e.schedule_at(Time::ns(1), s, 0);
  e.schedule_at(Time::ns(1), s, 1);
  e.schedule_at(Time::ns(1), s, 2);
  e.run();
  EXPECT_EQ(s.fired, (std::vector<uint64_t>{0, 1, 2, 99}));
}

TEST(Engine, RejectsThePast) {
  Engine e;
  Recorder r;
  r.engine = &e;
  e.schedule_at(Time::ns(10), r, 1);
  e.run();
  EXPECT_THROW(e.schedule_at(Time::ns(5), r, 2), std::logic_error);
}

TEST(Engine, RunUntilStopsBeforeLaterEvents) {
  Engine e;
  Recorder r;
  r.engine = &e;
  e.schedule_at(Time::ns(10), r, 1);
  e.schedule_at(Time::ns(20), r, 2);
  e.run(Time::ns(15));
  EXPECT_EQ(r.fired, (std::vector<uint64_t>{1}));
  EXPECT_EQ(e.pending(), 1u);
  e.run();
  EXPECT_EQ(r.fired, (std::vector<uint64_t>{1, 2}));
}

// After run(until) stopped early, an event may be scheduled before the next pending one (and
// before the time the queue already looked ahead to): it still fires first.
TEST(Engine, ScheduleBetweenRunsBeforeThePendingEvent) {
  Engine e;
  Recorder r;
  r.engine = &e;
  e.schedule_at(Time::ns(10), r, 1);
  e.schedule_at(Time::ns(20), r, 2);
  e.schedule_at(Time::ns(1 << 20), r, 3);
  e.run(Time::ns(15));
  e.schedule_at(Time::ns(12), r, 4);
  e.schedule_at(Time::ns(12), r, 5);
  e.run();
  EXPECT_EQ(r.fired, (std::vector<uint64_t>{1, 4, 5, 2, 3}));
}

// The queue under random load against a sorted reference, with pushes interleaved with pops
// (never earlier than the last popped time, as the engine guarantees).
TEST(EventQueue, InterleavedPushesAndPopsFollowTheOrder) {
  EventQueue q;
  RandomStream rng(11);
  std::vector<EventEntry> reference;
  uint64_t seq = 0;
  int64_t now = 0;
  for (int round = 0; round < 20000; ++round) {
    const int pushes = static_cast<int>(rng.uniform_int(3));
    for (int i = 0; i < pushes; ++i) {
      EventEntry e{now + static_cast<int64_t>(rng.uniform_int(rng.uniform01() < 0.3 ? 3 : 1u << 30)),
                   (rng.uniform_int(2) << 56) | seq, nullptr, seq};
      ++seq;
      q.push(e);
      reference.push_back(e);
    }
    if (!reference.empty() && rng.uniform01() < 0.5) {
      auto it = std::min_element(reference.begin(), reference.end(),
                                 [](const EventEntry& a, const EventEntry& b) { return a.before(b); });
      ASSERT_EQ(q.top().tag, it->tag) << "round " << round;
      now = it->time_ps;
      reference.erase(it);
      q.pop();
    }
  }
  EXPECT_EQ(q.size(), reference.size());
}

// A heap under random load against a sorted reference.
TEST(EventQueue, MatchesSortedOrderUnderRandomLoad) {
  EventQueue q;
  RandomStream rng(7);
  std::vector<EventEntry> all;
  for (uint64_t i = 0; i < 5000; ++i) {
    EventEntry e{static_cast<int64_t>(rng.uniform_int(100)), i, nullptr, i};
    all.push_back(e);
    q.push(e);
  }
  std::stable_sort(all.begin(), all.end(), [](auto& a, auto& b) { return a.before(b); });
  for (const auto& want : all) {
    ASSERT_FALSE(q.empty());
    EXPECT_EQ(q.top().tag, want.tag);
    q.pop();
  }
  EXPECT_TRUE(q.empty());
}

// Many events at one instant with mixed priorities, and more scheduled at that instant while they
// are taken out: the lowest level outgrows its sorted run and becomes a heap; the order must hold.
TEST(EventQueue, ManyEventsAtOneInstantKeepTheOrder) {
  EventQueue q;
  RandomStream rng(5);
  std::vector<EventEntry> reference;
  uint64_t seq = 0;
  auto push = [&](int64_t t) {
    EventEntry e{t, (rng.uniform_int(3) << 56) | seq, nullptr, seq};
    ++seq;
    q.push(e);
    reference.push_back(e);
  };
  for (int i = 0; i < 500; ++i) push(1000 + static_cast<int64_t>(rng.uniform_int(2)));
  for (int i = 0; i < 200; ++i) push(5000 + static_cast<int64_t>(rng.uniform_int(40)));
  int64_t now = 0;
  while (!reference.empty()) {
    auto it = std::min_element(reference.begin(), reference.end(),
                               [](const EventEntry& a, const EventEntry& b) { return a.before(b); });
    ASSERT_EQ(q.top().tag, it->tag) << "remaining " << reference.size();
    now = it->time_ps;
    reference.erase(it);
    q.pop();
    if (seq < 1500) push(now + static_cast<int64_t>(rng.uniform_int(rng.uniform01() < 0.5 ? 1 : 60)));
  }
  EXPECT_TRUE(q.empty());
}

// Insertions into a small sorted run (times within the run's span) until it turns into a heap
// midway through being taken out.
TEST(EventQueue, InsertionsIntoTheSortedRunKeepTheOrder) {
  EventQueue q;
  RandomStream rng(9);
  std::vector<EventEntry> reference;
  uint64_t seq = 0;
  auto push = [&](int64_t t) {
    EventEntry e{t, (rng.uniform_int(3) << 56) | seq, nullptr, seq};
    ++seq;
    q.push(e);
    reference.push_back(e);
  };
  auto pop_and_check = [&] {
    auto it = std::min_element(reference.begin(), reference.end(),
                               [](const EventEntry& a, const EventEntry& b) { return a.before(b); });
    ASSERT_EQ(q.top().tag, it->tag);
    reference.erase(it);
    q.pop();
  };
  push(0);
  for (int64_t t = 100; t < 120; ++t) push(t);  // one bucket of 20: sorted whole, up to 119
  pop_and_check();
  pop_and_check();
  for (int i = 0; i < 150; ++i) push(100 + static_cast<int64_t>(rng.uniform_int(20)));
  while (!reference.empty()) pop_and_check();
  EXPECT_TRUE(q.empty());
}

// A hold model on the queue itself against a reference heap: thousands pending, delays drawn
// over several scales (1 ps to 2^40 ps, and zero), so that large buckets open rungs several levels
// deep and later insertions land in every rung, in the sorted run and at the current instant.
TEST(EventQueue, HoldLoadAcrossScalesMatchesAReferenceHeap) {
  EventQueue q;
  RandomStream rng(13);
  auto later = [](const EventEntry& a, const EventEntry& b) { return b.before(a); };
  std::vector<EventEntry> reference;  // a heap with the earliest entry on top
  uint64_t seq = 0;
  auto push = [&](int64_t t) {
    EventEntry e{t, (rng.uniform_int(3) << 56) | seq, nullptr, seq};
    ++seq;
    q.push(e);
    reference.push_back(e);
    std::push_heap(reference.begin(), reference.end(), later);
  };
  auto delay = [&]() -> int64_t {
    const uint64_t scale = rng.uniform_int(5);
    if (scale == 0) return 0;
    const int bits = scale == 1 ? 4 : scale == 2 ? 12 : scale == 3 ? 24 : 40;
    return static_cast<int64_t>(rng.uniform_int(uint64_t{1} << bits));
  };
  for (int i = 0; i < 5000; ++i) push(delay());
  for (int fired = 0; fired < 50000; ++fired) {
    ASSERT_FALSE(q.empty());
    const EventEntry want = reference.front();
    std::pop_heap(reference.begin(), reference.end(), later);
    reference.pop_back();
    ASSERT_EQ(q.top().tag, want.tag) << "event " << fired;
    q.pop();
    if (fired < 45000) push(want.time_ps + delay());
  }
  while (!reference.empty()) {
    ASSERT_EQ(q.top().tag, reference.front().tag);
    std::pop_heap(reference.begin(), reference.end(), later);
    reference.pop_back();
    q.pop();
  }
  EXPECT_TRUE(q.empty());
  // Cleared, the queue starts over at time 0.
  push(0);
  q.clear();
  reference.clear();
  EXPECT_TRUE(q.empty());
  push(5);
  push(3);
  EXPECT_EQ(q.top().time_ps, 3);
}

TEST(HoldModel, FiresTheRequestedNumberOfEvents) {
  auto r = run_hold_model(1000, 20000);
  // `events` firings reschedule, the next one stops the engine.
  EXPECT_EQ(r.events, 20001u);
}

TEST(RandomStreams, NamedStreamsAreIndependentAndReproducible) {
  RandomStreams a(42), b(42);
  const double a1 = a.stream("arrivals").uniform01();
  b.stream("other").uniform01();  // creating another stream first must not shift "arrivals"
  EXPECT_EQ(a1, b.stream("arrivals").uniform01());
  RandomStreams c(43);
  EXPECT_NE(a1, c.stream("arrivals").uniform01());
}

TEST(RandomStreams, KnownValuesPinTheGenerator) {
  // SplitMix64 from state 0: the reference sequence's first value.
  uint64_t st = 0;
  EXPECT_EQ(splitmix64_next(st), 0xe220a8397b1dcdafULL);
}

TEST(RandomStreams, ExponentialAndGammaMoments) {
  RandomStream r(3);
  const int n = 200000;
  double sum = 0, gsum = 0, gsq = 0;
  for (int i = 0; i < n; ++i) sum += r.exponential(2.0);
  for (int i = 0; i < n; ++i) {
    double g = r.gamma(0.25, 4.0);  // mean 1, variance 4
    gsum += g;
    gsq += g * g;
  }
  EXPECT_NEAR(sum / n, 2.0, 0.03);
  const double gm = gsum / n;
  EXPECT_NEAR(gm, 1.0, 0.03);
  EXPECT_NEAR(gsq / n - gm * gm, 4.0, 0.25);
}

// The ziggurat's draws against Exp(1)'s survival function e^-q at 48 points from 0.05 to 12 (each
// layer's rectangle, its wedge and the tail past r = 7.697 all matter), and its first two
// moments; each within 5 standard errors of 2 million draws.
TEST(ExponentialZiggurat, DrawsFollowTheExponentialDistribution) {
  const ExponentialZiggurat exponential;
  RandomStream rng(11);
  const int n = 2'000'000;
  std::vector<double> q;
  for (int k = 1; k <= 48; ++k) q.push_back(0.05 + (12.0 - 0.05) * (k - 1) / 47.0);
  std::vector<int> above(q.size(), 0);
  double sum = 0, sq = 0;
  for (int i = 0; i < n; ++i) {
    const double x = exponential(rng);
    ASSERT_GE(x, 0.0);
    sum += x;
    sq += x * x;
    for (size_t k = 0; k < q.size() && x > q[k]; ++k) ++above[k];
  }
  for (size_t k = 0; k < q.size(); ++k) {
    const double p = std::exp(-q[k]);
    EXPECT_NEAR(static_cast<double>(above[k]) / n, p, 5 * std::sqrt(p * (1 - p) / n) + 1.0 / n) << "P(X > " << q[k] << ")";
  }
  EXPECT_NEAR(sum / n, 1.0, 5 * std::sqrt(1.0 / n));    // variance 1
  EXPECT_NEAR(sq / n, 2.0, 5 * std::sqrt(20.0 / n));    // E X^2 = 2, Var X^2 = 24 - 4
}

}  // namespace
}  // namespace parallax

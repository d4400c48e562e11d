// File: sim/experiment/run_progress_test.cpp
// The progress line's text, and that running the engine in reported steps fires the very events
// engine.run() fires, in the same order (what keeps a run's outputs the same with a terminal).
#include "sim/experiment/run_progress.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <utility>
#include <vector>

namespace parallax {
namespace {

TEST(RunProgress, Line) {
  EXPECT_EQ(RunProgress::line("q.yaml", 0.25, 3.0), "run q.yaml:  25% 3.00 s, about 9.00 s left");
  EXPECT_EQ(RunProgress::line("q.yaml", 0.001, 3.0), "run q.yaml:   0% 3.00 s");  // too early for an ETA
  EXPECT_EQ(RunProgress::line("q.yaml", 1.5, 3.0), "run q.yaml: 100% 3.00 s");    // clamped, nothing left
}

// Events at uneven times, some scheduled from handlers, several at one instant.
class Recorder : public EventHandler {
 public:
  explicit Recorder(Engine& e) : engine_(e) {}
  void handle_event(uint64_t tag) override {
    fired.emplace_back(engine_.now().ps(), tag);
    if (tag < 40) engine_.schedule_in(Time::ps(static_cast<int64_t>(tag % 7) * 997'000'003), *this, tag + 10);
  }
  std::vector<std::pair<int64_t, uint64_t>> fired;

 private:
  Engine& engine_;
};

std::vector<std::pair<int64_t, uint64_t>> fire(bool in_steps) {
  Engine engine;
  Recorder r(engine);
  for (uint64_t t = 0; t < 10; ++t) engine.schedule_at(Time::ps(static_cast<int64_t>(t * t) * 1'000'000'007), r, t);
  if (!in_steps) {
    engine.run();
    return r.fired;
  }
  RunProgress progress(stderr, "test", false);  // reports, draws nothing
  run_engine_reporting(engine, Time::ps(50'000'000'000), &progress, 0.5, 0.5);
  return r.fired;
}

TEST(RunProgress, SteppedRunFiresTheSameEvents) {
  const auto whole = fire(false);
  const auto stepped = fire(true);
  ASSERT_EQ(whole.size(), 50u);  // 10 first events, each rescheduled 4 times (tags < 40)
  EXPECT_EQ(stepped, whole);
}

}  // namespace
}  // namespace parallax

// File: sim/engine/hold_model.cpp
#include "sim/engine/hold_model.h"

#include <chrono>

#include "sim/engine/engine.h"
#include "sim/engine/exponential_ziggurat.h"
#include "sim/engine/random_streams.h"

namespace parallax {

namespace {
class HoldSource final : public EventHandler {
 public:
  HoldSource(Engine& engine, RandomStream& rng, uint64_t budget)
      : engine_(engine), rng_(rng), budget_(budget) {}
  void handle_event(uint64_t tag) override {
    if (budget_ == 0) {
      engine_.stop();
      return;
    }
    --budget_;
    engine_.schedule_in(delay(), *this, tag);
  }
  // 1 ps + Exp(1 us), drawn inside the timed phase (the generator's share of the time is the
  // smaller the cheaper the draw: exponential_ziggurat.h).
  Time delay() { return Time::ps(1 + static_cast<int64_t>(exponential_(rng_) * 1e6)); }

 private:
  Engine& engine_;
  RandomStream& rng_;
  const ExponentialZiggurat exponential_;
  uint64_t budget_;
};
}  // namespace

HoldModelResult run_hold_model(uint64_t pending, uint64_t events, uint64_t seed) {
  Engine engine;
  RandomStreams streams(seed);
  RandomStream& rng = streams.stream("hold");
  HoldSource source(engine, rng, events);
  for (uint64_t i = 0; i < pending; ++i) engine.schedule_at(source.delay(), source, i);
  const auto t0 = std::chrono::steady_clock::now();
  engine.run();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const uint64_t fired = engine.events_processed();
  return {pending, fired, wall, wall > 0 ? static_cast<double>(fired) / wall : 0};
}

}  // namespace parallax

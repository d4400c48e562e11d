// File: tests/property/clock_range_test.cpp
// Property: no input the loader accepts can take the clock out of its range. Each seed takes one
// template of tests/support/scenario_clock.h and draws its ranged keys around their limits
// (sim/scenario/input_limits.h): at a limit, just past it, a few decades either side, or zero.
// Refused inputs must be InputErrors; accepted ones are run (transfers to their end, arrivals over
// duration_s) and must finish within kMaxRunSeconds without a TimeRangeError. Both outcomes must
// occur often, or the draws would not be probing the limits.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/scenario/input_limits.h"
#include "sim/scenario/scenario_loader.h"
#include "tests/property/property_seeds.h"
#include "tests/support/scenario_clock.h"

namespace parallax {
namespace {

// A ranged key of a template, and the limits its unit is drawn around.
struct RangedKey {
  const char* key;
  double lo, hi;  // in the key's own unit
};

// Per template (kRangeTemplates order).
const std::vector<std::vector<RangedKey>>& ranged_keys() {
  static const std::vector<std::vector<RangedKey>> keys = {
      {{"hardware.links.0.latency_us", 0, 1e6},
       {"hardware.links.1.latency_us", 0, 1e6},
       {"hardware.links.3.latency_us", 0, 1e6},
       {"hardware.links.0.GBps", 1e-6, 1e6},
       {"hardware.links.3.GBps", 1e-6, 1e6},
       {"hardware.gpu.kernel_launch_us", 0, 1e6},
       {"workload.transfers.0.start_s", 0, 1e6},
       {"workload.transfers.0.bytes", 1, 9.2e18},
       {"workload.transfers.1.bytes", 1, 9.2e18},
       {"workload.collectives.0.bytes", 1, 9.2e18},
       {"workload.collectives.0.start_s", 0, 1e6}},
      {{"workload.duration_s", 0, 1e6},
       {"workload.ls.arrivals.rate_per_s", 1e-6, 1e9},
       {"workload.ls.slo_ms", 0, 1e9}},
      {{"workload.duration_s", 0, 1e6},
       {"workload.elastic_resize_cost_us", 0, 1e6},
       {"workload.services.0.arrivals.rate_per_s", 1e-6, 1e9},
       {"workload.services.0.arrivals.cv", 1e-3, 1e3},
       {"workload.services.1.arrivals.rate_on_per_s", 1e-6, 1e9},
       {"workload.services.1.arrivals.rate_off_per_s", 1e-6, 1e9},
       {"workload.services.1.arrivals.mean_on_s", 1e-6, 1e6},
       {"workload.services.1.arrivals.mean_off_s", 1e-6, 1e6},
       {"workload.services.2.arrivals.rate_per_s", 1e-6, 1e9},
       {"workload.services.0.timeout_ms", 0, 1e9}},
  };
  return keys;
}

// A value around one of the key's limits: the limit itself, one part in 1e9 past or short of it,
// up to 4 decades either side, or 0.
double draw_around(const RangedKey& k, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> pick(0, 5);
  const double limit = (rng() & 1) != 0 || k.lo == 0 ? k.hi : k.lo;
  switch (pick(rng)) {
    case 0: return limit;
    case 1: return limit * (1 + 1e-9);
    case 2: return limit * (1 - 1e-9);
    case 3: return 0;
    default: return limit * std::pow(10.0, std::uniform_real_distribution<double>(-4, 4)(rng));
  }
}

std::string as_yaml_number(const std::string& key, double v) {
  // Byte counts are integers; everything else takes the shortest round-trip form.
  if (key.ends_with(".bytes")) return fmt::format("{}", static_cast<long long>(std::min(v, 9.2e18)));
  return fmt::format("{}", v);
}

TEST(ClockRange, NoAcceptedInputLeavesTheClock) {
  const property::SeedRange seeds = property::property_seeds(600);
  int accepted = 0, refused = 0;
  for (uint64_t seed = seeds.first; seed <= seeds.last; ++seed) {
    SCOPED_TRACE(property::seed_note(seed));
    std::mt19937_64 rng(seed);
    const size_t t = seed % testing::kRangeTemplates.size();
    const std::vector<RangedKey>& keys = ranged_keys()[t];
    std::vector<std::string> overrides;
    // A few keys per draw, so that sums (latency x steps, bytes over the slowest link, the resize
    // cost over the requests) meet their limits together, not only one key at a time.
    const int n = 1 + static_cast<int>(rng() % 4);
    for (int i = 0; i < n; ++i) {
      const RangedKey& k = keys[rng() % keys.size()];
      overrides.push_back(fmt::format("{}={}", k.key, as_yaml_number(k.key, draw_around(k, rng))));
    }
    SCOPED_TRACE(fmt::format("{}", fmt::join(overrides, " ")));
    Scenario s;
    try {
      s = load_scenario_text(testing::kRangeTemplates[t], "ranges.yaml", overrides);
    } catch (const InputError&) {
      ++refused;
      continue;
    }
    ++accepted;
    testing::ClockReach reach;
    ASSERT_NO_THROW(reach = testing::exercise_clock(s, 200'000));
    EXPECT_TRUE(reach.finished);
    EXPECT_LE(reach.latest.to_seconds(), kMaxRunSeconds);
    EXPECT_GE(reach.latest, Time::zero());
  }
  // Each outcome in more than one draw in twelve (50 of the default 600): the draws reach both
  // sides of the limits, whatever the seed count (CI's sanitizer phase runs a quarter of them).
  const int draws = accepted + refused;
  if (draws >= 100) {
    EXPECT_GT(accepted * 12, draws) << "the draws hardly ever pass the loader";
    EXPECT_GT(refused * 12, draws) << "the draws hardly ever meet a limit";
  }
  std::printf("clock range: %d accepted and run, %d refused by the loader\n", accepted, refused);
}

}  // namespace
}  // namespace parallax

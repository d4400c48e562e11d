// File: tests/support/scenario_clock.h
// What a loaded scenario does to the engine's clock, for the range tests (the property test
// tests/property/clock_range_test.cpp and the fuzz target tests/fuzz/scenario_ranges_fuzz.cpp):
// the transfer workload is replayed on a SimPlatform to its end; the arrival processes of the
// colocate and multiplex workloads are drawn over their duration_s. A time that leaves the clock's
// range throws TimeRangeError (sim/engine/sim_time.h), which the callers let through as a failure.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "sim/engine/sim_time.h"
#include "sim/scenario/scenario.h"

namespace parallax::testing {

// Three small scenarios whose ranged keys the tests push around: transfers on a hand-written
// four-GPU switch with a host (links.0-4, transfers.0-1, collectives.0), colocate (ls.arrivals poisson) and
// multiplex (services.0 gamma, .1 mmpp, .2 deterministic; elastic_resize_cost_us).
inline constexpr std::array<std::string_view, 3> kRangeTemplates = {
    R"(name: ranges-transfers
hardware:
  gpu: {sms: 132, peak_tflops: 989, hbm_GBps: 3350, memory_GiB: 80}
  gpus: 4
  switches: [{name: sw, kind: nvswitch}]
  links:
    - {a: gpu0, b: sw, GBps: 100, latency_us: 1}
    - {a: gpu1, b: sw, GBps: 100, latency_us: 1}
    - {a: gpu2, b: sw, GBps: 100, latency_us: 1}
    - {a: gpu3, b: sw, GBps: 100, latency_us: 1}
    - {a: sw, b: host0, GBps: 50, latency_us: 2}
workload:
  kind: transfers
  transfers:
    - {src: host0, dst: gpu0, bytes: 1GiB, start_s: 0.5}
    - {src: gpu1, dst: gpu3, bytes: 1MiB}
  collectives:
    - {op: all_reduce, group: all, bytes: 64MiB, start_s: 0.1}
)",
    R"(name: ranges-colocate
hardware: h200x1
workload:
  kind: colocate
  ls: {model: resnet50, batch: 8, slo_ms: 1, arrivals: {kind: poisson, rate_per_s: 1000}}
  be: {model: resnet152, batch: 64}
  duration_s: 1
  policies: [mps]
)",
    R"(name: ranges-multiplex
hardware: h200x1
workload:
  kind: multiplex
  duration_s: 1
  services:
    - {name: a, model: resnet50, max_batch: 32, timeout_ms: 1, slo_ms: 4, arrivals: {kind: gamma, rate_per_s: 1000, cv: 4}}
    - {name: b, model: bert_base, max_batch: 16, timeout_ms: 1, slo_ms: 6,
       arrivals: {kind: mmpp, rate_on_per_s: 2000, rate_off_per_s: 20, mean_on_s: 0.02, mean_off_s: 0.08}}
    - {name: c, model: efficientnet_b0, max_batch: 64, timeout_ms: 1, slo_ms: 3, arrivals: {kind: deterministic, rate_per_s: 100}}
  policies: [elastic]
  elastic_resize_cost_us: 10
)",
};

struct ClockReach {
  Time latest;              // the latest time the run or a draw reached (below the horizon for arrivals)
  uint64_t draws = 0;       // arrival draws made
  bool finished = true;     // the transfer replay finished every item
  bool truncated = false;   // a process reached max_draws before its duration
};

// Draws at most `max_draws` arrivals per process (a fuzz input must end within its time limit).
ClockReach exercise_clock(const Scenario& scenario, uint64_t max_draws);

}  // namespace parallax::testing

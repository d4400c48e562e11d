// File: tests/support/scenario_clock.cpp
#include "tests/support/scenario_clock.h"

#include <algorithm>
#include <vector>

#include "sim/engine/engine.h"
#include "sim/engine/random_streams.h"
#include "sim/platform/sim_platform.h"
#include "sim/scenario/node_directory.h"
#include "sim/scenario/transfer_csv.h"
#include "sim/workload/arrival_process.h"
#include "sim/scenario/transfer_replay.h"

namespace parallax::testing {

namespace {

void draw_arrivals(const ArrivalProcessSpec& spec, double duration_s, uint64_t max_draws, RandomStream& rng,
                   ClockReach& reach) {
  const std::unique_ptr<ArrivalProcess> process = make_arrival_process(spec, rng);
  const Time end = Time::seconds(duration_s);
  uint64_t n = 0;
  for (Time t = process->next(); t < end; t = process->next()) {
    reach.latest = std::max(reach.latest, t);
    ++reach.draws;
    if (++n == max_draws) {
      reach.truncated = true;
      return;
    }
  }
}

}  // namespace

ClockReach exercise_clock(const Scenario& s, uint64_t max_draws) {
  ClockReach reach;
  RandomStreams streams(s.seed);
  if (s.workload_kind == "transfers") {
    Engine engine;
    SimPlatform platform(engine, s.hardware, nullptr);
    TransferCsvStream csv(s.transfers, NodeDirectory(s.hardware));
    TransferReplay replay(platform, s.transfers, csv);
    replay.start();
    engine.run();
    reach.latest = engine.now();
    reach.finished = replay.finished();
  } else if (s.workload_kind == "colocate") {
    draw_arrivals(s.colocate.ls_arrivals, s.colocate.duration_s, max_draws, streams.stream("ls"), reach);
  } else if (s.workload_kind == "multiplex") {
    for (const MultiplexServiceSpec& service : s.multiplex.services)
      draw_arrivals(service.arrivals, s.multiplex.duration_s, max_draws, streams.stream(service.name), reach);
  }
  return reach;
}

}  // namespace parallax::testing

// File: tools/bench_command.h
// `parallax bench ...`: performance benchmarks (never timed unit tests). Each prints a table and
// the command line that reproduces it.
#pragma once

#include <cstdint>
#include <string>

namespace parallax {

// The hold model at N = 1e3, 1e5, 1e6 pending events: events/s of the engine alone.
int bench_engine(uint64_t events_per_point);

}  // namespace parallax

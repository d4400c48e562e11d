// File: tools/bench_command.cpp
#include "tools/bench_command.h"

#include <fmt/format.h>

#include <cstdio>

#include "sim/engine/hold_model.h"
#include "sim/report/console_table.h"

namespace parallax {

int bench_engine(uint64_t events_per_point) {
  std::vector<std::vector<std::string>> rows;
  for (uint64_t n : {uint64_t{1000}, uint64_t{100000}, uint64_t{1000000}}) {
    const HoldModelResult r = run_hold_model(n, events_per_point);
    rows.push_back({fmt::format("{}", n), fmt::format("{}", r.events), format_seconds(r.wall_s),
                    fmt::format("{:.1f} M", r.events_per_s / 1e6)});
  }
  std::fputs(format_table({"pending events N", "events fired", "wall", "events/s"}, rows).c_str(), stdout);
  std::printf(
      "\nhold model: N events pending; each firing schedules one event at now + 1 ps + Exp(1 us); one core.\n"
      "Timed: the firings (queue pop, handler, push) and each new delay's draw (a ziggurat sampler,\n"
      "sim/engine/exponential_ziggurat.h); not timed: filling the queue with the first N.\n");
  return 0;
}

}  // namespace parallax

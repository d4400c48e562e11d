// File: sim/report/activity_log_check.cpp
#include "sim/report/activity_log_check.h"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/report/fixed_decimal.h"

namespace parallax {

void check_activity_log(const ActivityLog& log) {
  for (const ActivityRecord& r : log.records) {
    const auto fail = [&r](const std::string& what) {
      throw std::invalid_argument(fmt::format("activity {} ({} \"{}\"): {}", r.id, to_string(r.kind),
                                              r.name, what));
    };
    if (r.end < r.start) {
      fail(fmt::format("ends at {} s, before its start at {} s", format_time_s(r.end),
                       format_time_s(r.start)));
    }
    if (!std::isfinite(r.bytes)) fail(fmt::format("bytes is {}", r.bytes));
    if (!std::isfinite(r.flops)) fail(fmt::format("flops is {}", r.flops));
    for (int link : r.links) {
      if (link < 0 || static_cast<size_t>(link) >= log.link_directions.size()) {
        fail(fmt::format("link-direction id {} is not in the log's table of {}", link,
                         log.link_directions.size()));
      }
    }
  }
}

}  // namespace parallax

// File: sim/report/activity_log_check.h
// The checks every writer of an ActivityLog makes before it writes a byte, so that a broken log
// fails loudly instead of producing a file that looks fine. Producing a consistent log is the
// platform's job; this only refuses one that is not.
#pragma once

#include "sim/platform/activity_record.h"

namespace parallax {

// Throws std::invalid_argument naming the record (id and name) if it ends before it starts, has a
// NaN or infinite byte or FLOP count, or lists a link-direction id outside log.link_directions.
void check_activity_log(const ActivityLog& log);

}  // namespace parallax

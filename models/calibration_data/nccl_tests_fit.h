// File: models/calibration_data/nccl_tests_fit.h
// Fits the ring model of ring_fit.h (t = base + steps·α + steps·(S/P)/(η·link_Bps)) to one
// nccl-tests log: one (op, ranks) group, the out-of-place times of every row whose #wrong is 0.
// The fitted numbers are effective values for that group: on a multi-node log η·link_Bps is the
// bandwidth the whole ring reached, not a property of the NVLink links.
#pragma once

#include <string>

#include "models/calibration_data/calibration_file.h"
#include "models/calibration_data/nccl_tests_log.h"
#include "models/collective_cost.h"
#include "models/error_stats.h"

namespace parallax::models {

struct NcclTestsFit {
  CollectiveCalibration calibration;  // fitted on every usable row; errors on those rows
  ErrorSummary held_out;              // refit on 3 of every 4 rows (by size), errors on the 4th
};

// Throws DataError (the log, located at its last row) for fewer than 4 usable rows, and
// std::invalid_argument for ranks < 2 (the caller checks it).
NcclTestsFit fit_nccl_tests(const NcclTestsLog& log, CollectiveOp op, int ranks, double link_Bps);

// The fitted ring's time for `bytes`.
double predict_collective_s(const CollectiveCalibration& c, CollectiveOp op, double bytes);

}  // namespace parallax::models

// File: models/calibration_data/nccl_tests_fit.h
// Fits NCCL's per-protocol model (models/protocol_fit.h: up to three protocols, each
// time = L + F·S/busbw, the fastest one per size, by log-space error) to one nccl-tests log: one
// (op, ranks) group, the out-of-place times of every row whose #wrong is 0. The fitted numbers
// are effective values for that group: on a multi-node log busbw is what the whole group
// reached, not a property of the NVLink links.
#pragma once

#include <string>
#include <vector>

#include "models/calibration_data/calibration_file.h"
#include "models/calibration_data/nccl_tests_log.h"
#include "models/collective_cost.h"
#include "models/error_stats.h"
#include "models/nccl_tuning.h"

namespace parallax::models {

struct NcclTestsFit {
  CollectiveCalibration calibration;  // fitted on every usable row; errors on those rows
  ErrorSummary held_out;              // refit on 3 of every 4 rows (by size), errors on the 4th
};

// `link_Bps` is recorded (the preset's per-GPU link, for reference); the fit does not use it.
// Throws DataError (the log, located at its last row) for fewer than 4 usable rows, and
// std::invalid_argument for ranks < 2 (the caller checks it).
NcclTestsFit fit_nccl_tests(const NcclTestsLog& log, CollectiveOp op, int ranks, double link_Bps);

// Refit on the rows whose index i (sizes ascending, usable rows only) has i % every != every − 1
// and the relative errors on the others (every = 2: fit on every other size, test the rest).
ErrorSummary held_out_errors(const NcclTestsLog& log, CollectiveOp op, int ranks, int every);

// The candidates a calibration describes: its fitted protocols, or (a calibration without
// protocols) one Simple ring with latency base + steps·α and busbw η·link.
std::vector<NcclCandidate> calibrated_candidates(const CollectiveCalibration& c);

// The fastest calibrated candidate's time for `bytes`.
double predict_collective_s(const CollectiveCalibration& c, CollectiveOp op, double bytes);

}  // namespace parallax::models

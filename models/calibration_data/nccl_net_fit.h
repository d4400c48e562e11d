// File: models/calibration_data/nccl_net_fit.h
// The inter-node part of NCCL's model fitted to a multi-node nccl-tests log: everything else is
// NCCL's constants for the box (models/nccl_scaleout.h), and two network knobs are searched —
// the NIC rate (NcclNet::nic_Bps) and tuning.cc's latencyInter (NcclNet::hop_latency_s, added
// to NCCL's NET hwLat per inter-node step) — by mean squared ln(pred/meas) over the log's usable
// rows (out of place, #wrong 0), on a log-spaced grid and then a finer one around the best.
// Unlike fit_nccl_tests (one effective fit per group) the result is in NCCL's structure, so it
// says what the network delivered; `parallax fit --nccl-tests` prints it for multi-node logs.
#pragma once

#include "models/calibration_data/nccl_tests_log.h"
#include "models/error_stats.h"
#include "models/nccl_tuning.h"

namespace parallax::models {

struct NcclNetFit {
  double nic_Bps = 0.0;
  double hop_latency_s = 0.0;
  ErrorSummary in_sample;  // fitted on every usable row, errors on them
  ErrorSummary held_out;   // refitted on 3 of every 4 rows (by size), errors on the 4th
};

// `box.net` gives nodes, GPUs and NICs per node (its nic_Bps and hop_latency_s are what is
// fitted). Throws std::invalid_argument for box.net.nodes < 2 and DataError (the log) for fewer
// than 4 usable rows.
NcclNetFit fit_nccl_net(const NcclTestsLog& log, CollectiveOp op, int ranks, const NcclBox& box);

}  // namespace parallax::models

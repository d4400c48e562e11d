// File: models/protocol_fit.h
// Fits NCCL's per-protocol model (models/nccl_tuning.h) to measured times of one collective
// group (one op, one rank count): up to three protocols, each time = L_k + F·S/B_k, the group's
// time the smallest of them, so the fit follows NCCL's switch from LL to LL128 to Simple as the
// size grows. The error measure is relative, in log space (ln(predicted/measured)).
//
// How: for one, two and three protocols, every split of the sizes (ascending) into that many
// contiguous bands (each of >= 2 rows; boundaries on a grid of at most 32 positions) gets a
// relative least-squares line per band; the split whose min-model has the smallest loss seeds a
// Nelder–Mead search over (ln L_k, ln B_k). The loss is Huber on ln(pred/meas) (squared within
// ±0.1, linear beyond: robust to sizes hit by launch jitter). One more protocol is kept only if
// it lowers the loss by more than a quarter. Protocols are named by band, in NCCL's order (one
// band: Simple; two: LL, Simple; three: LL, LL128, Simple); one that is the fastest for no
// measured size is dropped.
#pragma once

#include <span>
#include <vector>

#include "models/nccl_tuning.h"

namespace parallax::models {

struct TimedSize {
  double bytes = 0.0;       // nccl-tests' S
  double measured_s = 0.0;
};

// `algorithm` labels the candidates ("ring" or "p2p"). Throws std::invalid_argument for fewer
// than 2 samples, ranks < 2 or a non-positive time.
std::vector<NcclCandidate> fit_protocols(CollectiveOp op, int64_t ranks, std::span<const TimedSize> samples,
                                         std::string_view algorithm);

}  // namespace parallax::models

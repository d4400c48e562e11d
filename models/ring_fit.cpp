// File: models/ring_fit.cpp
// Relative linear least squares for (base, α, 1/η); see ring_fit.h.
#include "models/ring_fit.h"

#include <array>
#include <limits>
#include <stdexcept>

#include <Eigen/Dense>

namespace parallax::models {

RingParams RingFit::ring(int64_t ranks) const {
  RingParams r;
  r.base_latency_s = base_latency_s;
  r.hops.assign(static_cast<std::size_t>(ranks),
                Hop{bandwidth_efficiency * link_Bps, step_latency_s, LinkType::nvlink});
  return r;
}

RingFit fit_uniform_ring(std::span<const CollectiveSample> samples, double link_Bps) {
  if (samples.empty() || link_Bps <= 0) {
    throw std::invalid_argument("fit_uniform_ring: no samples or link_Bps <= 0");
  }
  const auto n = static_cast<Eigen::Index>(samples.size());
  // Columns: base, α (per step), 1/η (multiplies steps·(S/P)/link_Bps). Rows scaled by 1/t.
  Eigen::MatrixXd a(n, 3);
  Eigen::VectorXd b = Eigen::VectorXd::Ones(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const CollectiveSample& s = samples[static_cast<std::size_t>(i)];
    if (s.measured_s <= 0 || s.ranks < 2) {
      throw std::invalid_argument("fit_uniform_ring: needs measured_s > 0 and ranks >= 2");
    }
    const double steps = static_cast<double>(ring_steps(s.op, s.ranks));
    a(i, 0) = 1.0 / s.measured_s;
    a(i, 1) = steps / s.measured_s;
    a(i, 2) = steps * (s.bytes / static_cast<double>(s.ranks)) / link_Bps / s.measured_s;
  }
  // Try the full model, then with base and/or α pinned at zero; keep the best feasible one.
  constexpr std::array<std::array<bool, 2>, 4> kFree{{{true, true}, {false, true}, {true, false},
                                                      {false, false}}};
  double best_residual = std::numeric_limits<double>::infinity();
  Eigen::Vector3d best_x = Eigen::Vector3d::Zero();
  for (const auto& free : kFree) {
    std::array<Eigen::Index, 3> cols{};
    Eigen::Index used = 0;
    if (free[0]) cols[static_cast<std::size_t>(used++)] = 0;
    if (free[1]) cols[static_cast<std::size_t>(used++)] = 1;
    cols[static_cast<std::size_t>(used++)] = 2;
    Eigen::MatrixXd sub(n, used);
    for (Eigen::Index c = 0; c < used; ++c) sub.col(c) = a.col(cols[static_cast<std::size_t>(c)]);
    const Eigen::VectorXd x = sub.colPivHouseholderQr().solve(b);
    Eigen::Vector3d full = Eigen::Vector3d::Zero();
    for (Eigen::Index c = 0; c < used; ++c) full[cols[static_cast<std::size_t>(c)]] = x[c];
    if (full[0] < 0 || full[1] < 0 || full[2] <= 0) continue;
    const double residual = (a * full - b).squaredNorm();
    if (residual < best_residual) {
      best_residual = residual;
      best_x = full;
    }
  }
  if (!(best_residual < std::numeric_limits<double>::infinity())) {
    throw std::invalid_argument("fit_uniform_ring: no feasible fit (bandwidth term <= 0)");
  }
  RingFit fit;
  fit.link_Bps = link_Bps;
  fit.base_latency_s = best_x[0];
  fit.step_latency_s = best_x[1];
  fit.bandwidth_efficiency = 1.0 / best_x[2];
  return fit;
}

}  // namespace parallax::models

// File: models/linear_time_fits.cpp
#include "models/linear_time_fits.h"

#include <limits>
#include <set>
#include <stdexcept>
#include <vector>

#include <Eigen/Dense>

namespace parallax::models {

namespace {

// Solves min ||diag(1/y)·(X·x − y)|| over x with the columns in `pinned` held at 0, trying the
// unconstrained fit first, then each pinned subset of `nonnegative`; the feasible solution with
// the smallest residual wins.
Eigen::VectorXd relative_fit(const Eigen::MatrixXd& x, const Eigen::VectorXd& y,
                             const std::vector<Eigen::Index>& nonnegative) {
  const Eigen::Index n = x.rows(), p = x.cols();
  Eigen::MatrixXd a(n, p);
  for (Eigen::Index i = 0; i < n; ++i) a.row(i) = x.row(i) / y[i];
  const Eigen::VectorXd b = Eigen::VectorXd::Ones(n);
  double best = std::numeric_limits<double>::infinity();
  Eigen::VectorXd best_x = Eigen::VectorXd::Zero(p);
  const size_t subsets = size_t{1} << nonnegative.size();
  for (size_t mask = 0; mask < subsets; ++mask) {
    std::vector<Eigen::Index> cols;
    for (Eigen::Index c = 0; c < p; ++c) {
      bool pinned = false;
      for (size_t j = 0; j < nonnegative.size(); ++j)
        if (nonnegative[j] == c && (mask >> j & 1)) pinned = true;
      if (!pinned) cols.push_back(c);
    }
    if (cols.empty()) continue;
    Eigen::MatrixXd sub(n, static_cast<Eigen::Index>(cols.size()));
    for (size_t c = 0; c < cols.size(); ++c) sub.col(static_cast<Eigen::Index>(c)) = a.col(cols[c]);
    const Eigen::VectorXd s = sub.colPivHouseholderQr().solve(b);
    Eigen::VectorXd full = Eigen::VectorXd::Zero(p);
    for (size_t c = 0; c < cols.size(); ++c) full[cols[c]] = s[static_cast<Eigen::Index>(c)];
    bool feasible = full.allFinite();
    for (Eigen::Index c : nonnegative) feasible = feasible && full[c] >= 0;
    if (!feasible) continue;
    const double r = (a * full - b).squaredNorm();
    if (r < best) best = r, best_x = full;
  }
  if (!(best < std::numeric_limits<double>::infinity()))
    throw std::invalid_argument("relative least squares: no feasible fit");
  return best_x;
}

void check_measured(double t, const char* what) {
  if (!(t > 0)) throw std::invalid_argument(std::string(what) + ": measured values must be > 0");
}

}  // namespace

AffineTransferFit fit_affine_transfer(std::span<const BytesTimeSample> samples) {
  std::set<double> sizes;
  for (const auto& s : samples) sizes.insert(s.bytes);
  if (samples.size() < 2 || sizes.size() < 2)
    throw std::invalid_argument("fit_affine_transfer: needs two distinct sizes");
  const auto n = static_cast<Eigen::Index>(samples.size());
  Eigen::MatrixXd x(n, 2);
  Eigen::VectorXd y(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto& s = samples[static_cast<size_t>(i)];
    check_measured(s.measured_s, "fit_affine_transfer");
    x(i, 0) = 1.0;
    x(i, 1) = s.bytes;
    y[i] = s.measured_s;
  }
  const Eigen::VectorXd c = relative_fit(x, y, {0, 1});
  if (!(c[1] > 0)) throw std::invalid_argument("fit_affine_transfer: time does not grow with bytes");
  return AffineTransferFit{c[0], 1.0 / c[1]};
}

InterDecomFit fit_interdecom_abc(std::span<const DegreeTimeSample> samples) {
  std::set<double> degrees;
  for (const auto& s : samples) degrees.insert(s.degree);
  if (degrees.size() < 3) throw std::invalid_argument("fit_interdecom_abc: needs three distinct degrees");
  const auto n = static_cast<Eigen::Index>(samples.size());
  Eigen::MatrixXd x(n, 3);
  Eigen::VectorXd y(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto& s = samples[static_cast<size_t>(i)];
    check_measured(s.measured_s, "fit_interdecom_abc");
    if (!(s.degree >= 1)) throw std::invalid_argument("fit_interdecom_abc: degree must be >= 1");
    x(i, 0) = s.degree;
    x(i, 1) = 1.0;
    x(i, 2) = 1.0 / s.degree;
    y[i] = s.measured_s;
  }
  const Eigen::VectorXd c = relative_fit(x, y, {0, 2});
  return InterDecomFit{c[0], c[1], c[2]};
}

InterferenceCoefficients fit_interference(std::span<const InterferenceSample> samples) {
  if (samples.size() < 5) throw std::invalid_argument("fit_interference: needs >= 5 co-run rows");
  const auto n = static_cast<Eigen::Index>(samples.size());
  Eigen::MatrixXd x(n, 5);
  Eigen::VectorXd y(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto& s = samples[static_cast<size_t>(i)];
    check_measured(s.slowdown, "fit_interference");
    x.row(i) << s.self.l2, s.other.l2, s.self.dram, s.other.dram, 1.0;
    y[i] = s.slowdown;
  }
  const Eigen::VectorXd c = relative_fit(x, y, {});
  return InterferenceCoefficients{c[0], c[1], c[2], c[3], c[4]};
}

}  // namespace parallax::models

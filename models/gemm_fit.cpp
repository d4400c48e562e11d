// File: models/gemm_fit.cpp
// Levenberg–Marquardt over log-parameters, one run per tile pair and starting point.
#include "models/gemm_fit.h"

#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <Eigen/Dense>
#include <unsupported/Eigen/NonLinearOptimization>
#include <unsupported/Eigen/NumericalDiff>

namespace parallax::models {
namespace {

constexpr int kParams = 4;  // log eta_max, log k_half, log eta_mem, log overhead_s

GpuComputeParams with_theta(GpuComputeParams p, const Eigen::VectorXd& theta) {
  p.eta_max = std::exp(theta[0]);
  p.k_half = std::exp(theta[1]);
  p.eta_mem = std::exp(theta[2]);
  p.overhead_s = std::exp(theta[3]);
  return p;
}

// The functor shape Eigen's NumericalDiff and LevenbergMarquardt expect.
struct LogResiduals {
  using Scalar = double;
  enum { InputsAtCompileTime = Eigen::Dynamic, ValuesAtCompileTime = Eigen::Dynamic };
  using InputType = Eigen::VectorXd;
  using ValueType = Eigen::VectorXd;
  using JacobianType = Eigen::MatrixXd;

  std::span<const GemmSample> samples;
  GpuComputeParams base;

  int inputs() const { return kParams; }
  int values() const { return static_cast<int>(samples.size()); }

  int operator()(const Eigen::VectorXd& theta, Eigen::VectorXd& residuals) const {
    const GpuComputeParams p = with_theta(base, theta);
    for (std::size_t i = 0; i < samples.size(); ++i) {
      residuals[static_cast<Eigen::Index>(i)] =
          std::log(gemm_time_s(samples[i].shape, p) / samples[i].measured_s);
    }
    return 0;
  }
};

double rms_log_error(std::span<const GemmSample> samples, const GpuComputeParams& p) {
  double sum = 0.0;
  for (const GemmSample& s : samples) {
    const double r = std::log(gemm_time_s(s.shape, p) / s.measured_s);
    sum += r * r;
  }
  return std::sqrt(sum / static_cast<double>(samples.size()));
}

}  // namespace

GemmFitResult fit_gemm_params(std::span<const GemmSample> samples,
                              const GpuComputeParams& hardware,
                              std::span<const int64_t> tile_candidates) {
  if (samples.empty() || tile_candidates.empty()) {
    throw std::invalid_argument("fit_gemm_params: no samples or no tile candidates");
  }
  for (const GemmSample& s : samples) {
    if (s.measured_s <= 0) throw std::invalid_argument("fit_gemm_params: measured_s <= 0");
  }
  // Starting points: (eta_max, k_half, eta_mem, overhead_s).
  constexpr std::array<std::array<double, kParams>, 3> kStarts{{
      {0.75, 256.0, 0.8, 5e-6},
      {0.9, 1024.0, 0.6, 2e-6},
      {0.6, 64.0, 0.9, 10e-6},
  }};
  GemmFitResult best;
  best.rms_log_error = std::numeric_limits<double>::infinity();
  for (int64_t tile_m : tile_candidates) {
    for (int64_t tile_n : tile_candidates) {
      LogResiduals functor{samples, hardware};
      functor.base.tile_m = tile_m;
      functor.base.tile_n = tile_n;
      for (const auto& start : kStarts) {
        Eigen::VectorXd theta(kParams);
        for (int i = 0; i < kParams; ++i) theta[i] = std::log(start[static_cast<std::size_t>(i)]);
        Eigen::NumericalDiff<LogResiduals> numeric(functor);
        Eigen::LevenbergMarquardt<Eigen::NumericalDiff<LogResiduals>> lm(numeric);
        lm.parameters.maxfev = 2000;
        lm.minimize(theta);
        const GpuComputeParams p = with_theta(functor.base, theta);
        const double err = rms_log_error(samples, p);
        if (err < best.rms_log_error) {
          best.params = p;
          best.rms_log_error = err;
        }
      }
    }
  }
  return best;
}

}  // namespace parallax::models

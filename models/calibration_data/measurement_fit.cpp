// File: models/calibration_data/measurement_fit.cpp
#include "models/calibration_data/measurement_fit.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>

#include "models/gemm_fit.h"
#include "models/kernel_interference.h"
#include "models/kernel_time.h"
#include "models/linear_time_fits.h"

namespace parallax::models {

namespace {

GemmShape gemm_shape(const Measurement& r) {
  return GemmShape{static_cast<int64_t>(r.number("m")), static_cast<int64_t>(r.number("n")),
                   static_cast<int64_t>(r.number("k")), 2};
}

// A kernel's identity in a corun row: the `kernel` side or the `with` side.
using KernelKey = std::tuple<std::string, double, double, double, std::string>;

KernelKey self_key(const Measurement& r) {
  return {r.text("kernel"), r.number("flops"), r.number("dram_bytes"), r.number("blocks"), r.text("sms")};
}
KernelKey other_key(const Measurement& r) {
  return {r.text("with"), r.number("with_flops"), r.number("with_dram_bytes"), r.number("with_blocks"),
          r.text("with_sms")};
}

// Isolated times: corun rows with `with=none`.
std::map<KernelKey, double> alone_times(const std::vector<Measurement>& rows) {
  std::map<KernelKey, double> alone;
  for (const Measurement& r : rows)
    if (r.family == MeasurementFamily::corun && r.text("with") == "none") alone[self_key(r)] = r.value;
  return alone;
}

// The interference model's inputs for a co-run row, or nullopt without both isolated times.
std::optional<InterferenceSample> corun_sample(const Measurement& r, const std::map<KernelKey, double>& alone,
                                               double hbm_Bps) {
  if (r.text("with") == "none") return std::nullopt;
  const auto self = alone.find(self_key(r));
  const auto other = alone.find(other_key(r));
  if (self == alone.end() || other == alone.end()) return std::nullopt;
  InterferenceSample s;
  s.self.dram = std::min(1.0, r.number("dram_bytes") / (self->second * hbm_Bps));
  s.other.dram = std::min(1.0, r.number("with_dram_bytes") / (other->second * hbm_Bps));
  s.self.l2 = s.self.dram;  // no L2 profile: proxied by DRAM utilisation (kernel_interference.h)
  s.other.l2 = s.other.dram;
  s.slowdown = r.value / self->second;
  return s;
}

using DecomKey = std::tuple<std::string, double, double, double, double, double>;
DecomKey decom_key(const Measurement& r) {
  return {r.text("dtype"), r.number("m"), r.number("n"), r.number("k"), r.number("copy_sms"), r.number("copy_bytes")};
}

const InterDecomCalibration* find_interdecom(const Calibration& c, const Measurement& r) {
  for (const InterDecomCalibration& d : c.interdecom)
    if (static_cast<double>(d.m) == r.number("m") && static_cast<double>(d.n) == r.number("n") &&
        static_cast<double>(d.k) == r.number("k") && static_cast<double>(d.copy_sms) == r.number("copy_sms") &&
        d.copy_bytes == r.number("copy_bytes"))
      return &d;
  return nullptr;
}

}  // namespace

double ridge_time_s(const RidgeSample& r, const SmScalingCalibration& k, double p) {
  const double t_comp = r.flops / (r.sms * k.flops_per_sm);
  const double t_mem = r.dram_bytes / std::min(k.hbm_Bps, r.sms * k.bw_per_sm_Bps);
  return smoothed_max(t_comp, t_mem, p);
}

double fit_smoothing_p(const std::vector<RidgeSample>& rows, const SmScalingCalibration& k) {
  if (rows.empty()) throw std::invalid_argument("fit_smoothing_p: no ridge rows");
  const auto loss = [&](double log_p) {
    double sum = 0;
    for (const RidgeSample& r : rows) sum += std::pow(std::log(ridge_time_s(r, k, std::exp(log_p)) / r.seconds), 2);
    return sum;
  };
  // Golden-section search over log p in [log 1, log 64]: the loss is unimodal in p (the smoothed
  // time falls monotonically from T_comp + T_mem at p = 1 towards the max).
  double lo = 0, hi = std::log(kMaxSmoothingP);
  const double g = (std::sqrt(5.0) - 1) / 2;
  double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
  double fa = loss(a), fb = loss(b);
  for (int i = 0; i < 80; ++i) {
    if (fa < fb) {
      hi = b, b = a, fb = fa;
      a = hi - g * (hi - lo), fa = loss(a);
    } else {
      lo = a, a = b, fa = fb;
      b = lo + g * (hi - lo), fb = loss(b);
    }
  }
  return std::exp((lo + hi) / 2);
}

std::vector<bool> held_out_rows(const std::vector<Measurement>& rows) {
  std::map<MeasurementFamily, std::vector<size_t>> by_family;
  for (size_t i = 0; i < rows.size(); ++i) by_family[rows[i].family].push_back(i);
  std::vector<bool> held(rows.size(), false);
  for (auto& [family, idx] : by_family) {
    std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return rows[a].case_id < rows[b].case_id; });
    for (size_t j = 3; j < idx.size(); j += 4) held[idx[j]] = true;
  }
  return held;
}

Calibration fit_measurements(const std::vector<Measurement>& rows, const GpuComputeParams& hardware,
                             const std::string& source) {
  Calibration c;
  c.provenance.source = source;
  c.provenance.rows = static_cast<int>(rows.size());
  if (!rows.empty()) {
    const MeasurementProvenance& p = rows.front().provenance;
    c.gpu = p.gpu_name;
    c.provenance.gpu_name = p.gpu_name;
    c.provenance.sm_count = p.sm_count;
    c.provenance.driver = p.driver;
    c.provenance.cuda = p.cuda;
    c.provenance.sm_clock_mhz = p.sm_clock_mhz;
    c.provenance.mem_clock_mhz = p.mem_clock_mhz;
    c.provenance.date = p.date;
    c.provenance.git_commit = p.git_commit;
  }

  std::vector<GemmSample> gemm;
  std::map<std::pair<std::string, std::string>, std::vector<BytesTimeSample>> copy;
  std::map<std::string, std::vector<double>> launch;
  std::map<DecomKey, std::vector<DegreeTimeSample>> decom;
  std::vector<InterferenceSample> corun;
  std::vector<double> bw_per_sm, flops_per_sm;
  std::vector<RidgeSample> ridge;
  double most_bw = 0;
  const auto alone = alone_times(rows);
  for (const Measurement& r : rows) {
    switch (r.family) {
      case MeasurementFamily::gemm: gemm.push_back({gemm_shape(r), r.value}); break;
      case MeasurementFamily::copy:
        copy[{r.text("kind"), r.text("host_memory")}].push_back({r.number("bytes"), r.value});
        break;
      case MeasurementFamily::launch: launch[r.text("what")].push_back(r.value); break;
      case MeasurementFamily::interdecom: decom[decom_key(r)].push_back({r.number("d"), r.value}); break;
      case MeasurementFamily::corun:
        if (auto s = corun_sample(r, alone, hardware.hbm_Bps)) corun.push_back(*s);
        break;
      case MeasurementFamily::sm_scaling:
        if (r.number("dram_bytes") > 0 && r.number("flops") > 0) {
          ridge.push_back({r.number("sms"), r.number("flops"), r.number("dram_bytes"), r.value});
        } else if (r.number("dram_bytes") > 0) {
          const double bw = r.number("dram_bytes") / r.value;
          bw_per_sm.push_back(bw / r.number("sms"));
          most_bw = std::max(most_bw, bw);
        } else if (r.number("flops") > 0) {
          flops_per_sm.push_back(r.number("flops") / r.value / r.number("sms"));
        }
        break;
      default: break;
    }
  }
  if (gemm.size() >= 4) {
    constexpr std::array<int64_t, 3> kTiles{64, 128, 256};
    const GemmFitResult fit = fit_gemm_params(gemm, hardware, kTiles);
    c.gemm = GemmCalibration{fit.params, static_cast<int>(gemm.size()), fit.rms_log_error};
  }
  for (const auto& [key, samples] : copy) {
    try {
      const AffineTransferFit f = fit_affine_transfer(samples);
      c.copy.push_back({key.first, key.second, f.latency_s, f.bandwidth_Bps, static_cast<int>(samples.size())});
    } catch (const std::invalid_argument&) {
      // one size only: nothing to fit; validate reports these rows as unpredicted
    }
  }
  for (const auto& [what, values] : launch)
    c.launch.push_back({what, std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size()),
                        static_cast<int>(values.size())});
  if (corun.size() >= 5) c.interference = InterferenceCalibration{fit_interference(corun), static_cast<int>(corun.size())};
  if (!bw_per_sm.empty()) {
    SmScalingCalibration k;
    k.bw_per_sm_Bps = *std::max_element(bw_per_sm.begin(), bw_per_sm.end());
    k.hbm_Bps = most_bw;
    if (!flops_per_sm.empty()) {
      std::sort(flops_per_sm.begin(), flops_per_sm.end());
      const size_t n = flops_per_sm.size();
      k.flops_per_sm = n % 2 == 1 ? flops_per_sm[n / 2] : 0.5 * (flops_per_sm[n / 2 - 1] + flops_per_sm[n / 2]);
    }
    if (k.flops_per_sm > 0 && !ridge.empty()) k.smoothing_p = fit_smoothing_p(ridge, k);
    k.rows = static_cast<int>(bw_per_sm.size() + flops_per_sm.size() + (k.smoothing_p > 0 ? ridge.size() : 0));
    c.sm_scaling = k;
  }
  for (const auto& [key, samples] : decom) {
    try {
      const InterDecomFit f = fit_interdecom_abc(samples);
      c.interdecom.push_back({static_cast<long long>(std::get<1>(key)), static_cast<long long>(std::get<2>(key)),
                              static_cast<long long>(std::get<3>(key)), static_cast<long long>(std::get<4>(key)),
                              std::get<5>(key), f.a_s, f.b_s, f.c_s, static_cast<int>(samples.size())});
    } catch (const std::invalid_argument&) {
      // fewer than three degrees for this shape
    }
  }
  return c;
}

std::optional<double> predict_measurement(const Measurement& r, const Calibration& c,
                                          const std::vector<Measurement>& all_rows,
                                          const GpuComputeParams& hardware) {
  switch (r.family) {
    case MeasurementFamily::gemm:
      if (!c.gemm) return std::nullopt;
      return gemm_time_s(gemm_shape(r), c.gemm->params);
    case MeasurementFamily::copy:
      if (const CopyCalibration* k = c.find_copy(r.text("kind"), r.text("host_memory")))
        return k->latency_s + r.number("bytes") / k->bandwidth_Bps;
      return std::nullopt;
    case MeasurementFamily::launch:
      for (const LaunchCalibration& l : c.launch)
        if (l.what == r.text("what")) return l.seconds;
      return std::nullopt;
    case MeasurementFamily::corun: {
      if (!c.interference) return std::nullopt;
      const auto alone = alone_times(all_rows);
      const auto s = corun_sample(r, alone, hardware.hbm_Bps);
      if (!s) return std::nullopt;
      return alone.at(self_key(r)) * interference_slowdown(c.interference->coefficients, s->self, s->other);
    }
    case MeasurementFamily::sm_scaling: {
      if (!c.sm_scaling) return std::nullopt;
      const SmScalingCalibration& k = *c.sm_scaling;
      const double sms = r.number("sms");
      if (r.number("dram_bytes") > 0 && r.number("flops") > 0) {
        if (k.smoothing_p <= 0) return std::nullopt;
        return ridge_time_s({sms, r.number("flops"), r.number("dram_bytes"), 0}, k, k.smoothing_p);
      }
      if (r.number("dram_bytes") > 0) return r.number("dram_bytes") / std::min(k.hbm_Bps, sms * k.bw_per_sm_Bps);
      if (r.number("flops") > 0 && k.flops_per_sm > 0) return r.number("flops") / (sms * k.flops_per_sm);
      return std::nullopt;
    }
    case MeasurementFamily::interdecom:
      if (const InterDecomCalibration* d = find_interdecom(c, r))
        return d->a_s * r.number("d") + d->b_s + d->c_s / r.number("d");
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

}  // namespace parallax::models

// File: models/validation/kernel_model_validation_test.cpp
// The tile-level kernel model (models/op_kernels.h) against vidur's measured Llama-2-7B GEMMs
// (tests/data/vidur, 4,176 rows per GPU), on the GPU figures of the hardware presets
// (scenarios/hardware/dgx-a100.yaml, dgx-h100.yaml: SMs, peak, HBM, bw_per_SM, kernel_launch_us,
// kernel_smoothing_p) and η_c = 0.75 (gemm_cost's default). The presets' kernel_launch_us is the
// one figure fitted to these tables: the intercept of vidur's GEMV-like rows (m <= 8) against
// their bytes; the errors are reported on the 4,112 rows with m > 8 that the fit never saw, with
// the preset's smoothing exponent and, beside it, with p = ∞ (the plain max). docs/models.md and
// docs/platform.md quote the figures this prints.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "models/op_kernels.h"
#include "models/validation/vidur_data.h"

namespace parallax {
namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct PresetGpu {
  std::string model;
  DeviceRates rates;
};

// The GPU of a hardware preset as the kernel model sees it (the platform's device_rates_of).
PresetGpu preset_gpu(const std::string& preset) {
  const YAML::Node g = YAML::LoadFile(models::source_dir() + "/scenarios/hardware/" + preset + ".yaml")["gpu"];
  PresetGpu p;
  p.model = g["model"].as<std::string>();
  p.rates.sms = g["sms"].as<int>();
  p.rates.peak_flops = g["peak_tflops"].as<double>() * 1e12;
  p.rates.hbm_Bps = g["hbm_GBps"].as<double>() * 1e9;
  p.rates.bw_per_sm_Bps = g["bw_per_sm_GBps"].as<double>() * 1e9;
  p.rates.eta_compute = 0.75;
  p.rates.launch_s = g["kernel_launch_us"].as<double>() * 1e-6;
  p.rates.smoothing_p = g["kernel_smoothing_p"].as<double>();
  return p;
}

std::vector<models::VidurGemmRow> vidur_rows(const char* gpu_dir) {
  auto rows = models::read_vidur_gemm_csv(models::source_dir() + "/tests/data/vidur/compute/" + gpu_dir +
                                          "/llama2_7b_gemm.csv");
  EXPECT_GT(rows.size(), 4000u);
  return rows;
}

double gemm_bytes(const models::VidurGemmRow& r) {
  const double m = r.shape.m, n = r.shape.n, k = r.shape.k;
  return 2 * (m * k + k * n + m * n);
}

// The least-squares intercept of time against bytes over the GEMV-like rows (m <= 8): the
// fixed time per kernel (launch, ramp, tail) the presets carry as kernel_launch_us.
double gemv_intercept_s(const std::vector<models::VidurGemmRow>& rows) {
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& r : rows) {
    if (r.tokens > 8) continue;
    const double x = gemm_bytes(r), y = r.measured_s;
    n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  return (sy - slope * sx) / n;
}

// Median relative error on the rows the launch fit never saw (m > 8), with the bands and TP
// degrees docs/models.md tabulates.
double held_out_median_error(const char* gpu_dir, const char* preset, bool plain_max = false) {
  const auto rows = vidur_rows(gpu_dir);
  PresetGpu g = preset_gpu(preset);
  if (plain_max) g.rates.smoothing_p = 0;
  const DeviceRates& d = g.rates;
  struct Band {
    const char* name;
    int64_t lo, hi;
    std::vector<double> e;
  };
  Band bands[] = {{"9-127", 9, 127, {}}, {"128-511", 128, 511, {}}, {"512-2047", 512, 2047, {}}, {"2048-4096", 2048, 4096, {}}};
  std::vector<double> held, tp[9];
  for (const auto& r : rows) {
    if (r.tokens <= 8) continue;
    const OpKernel k = gemm_kernel(r.shape.m, r.shape.n, r.shape.k, 1, data_type("bf16"), d, gpu_limits_for(g.model), d.sms);
    const double e = std::abs(kernel_time_s(k.shape, d, d.sms, 1.0) - r.measured_s) / r.measured_s;
    held.push_back(e);
    tp[r.tp].push_back(e);
    for (Band& b : bands)
      if (r.tokens >= b.lo && r.tokens <= b.hi) b.e.push_back(e);
  }
  std::sort(held.begin(), held.end());
  char p[16] = "inf";
  if (d.smoothing_p > 0) std::snprintf(p, sizeof p, "%g", d.smoothing_p);
  std::printf("%s (%s, launch %.1f us, p %s): %zu held-out rows (m > 8), median %.1f %%, P95 %.1f %%\n",
              g.model.c_str(), preset, d.launch_s * 1e6, p, held.size(), 100 * median(held),
              100 * held[held.size() * 95 / 100]);
  for (const Band& b : bands) std::printf("  m %-9s %4zu rows, median %.1f %%\n", b.name, b.e.size(), 100 * median(b.e));
  for (int t : {1, 2, 4, 8}) std::printf("  TP %d       %4zu rows, median %.1f %%\n", t, tp[t].size(), 100 * median(tp[t]));
  return median(held);
}

// The presets' kernel_launch_us is the GEMV intercept of their GPU's vidur rows (to the 0.1 µs
// they are written with): a preset edited away from its data fails here.
TEST(KernelModelValidation, PresetLaunchIsTheVidurGemvIntercept) {
  const double a100 = gemv_intercept_s(vidur_rows("a100")), h100 = gemv_intercept_s(vidur_rows("h100"));
  std::printf("GEMV intercept (m <= 8, 64 rows): A100 %.2f us, H100 %.2f us\n", a100 * 1e6, h100 * 1e6);
  EXPECT_NEAR(preset_gpu("dgx-a100").rates.launch_s, a100, 0.05e-6);
  EXPECT_NEAR(preset_gpu("dgx-h100").rates.launch_s, h100, 0.05e-6);
}

// Measured here (held out, m > 8), presets' p = 4: A100 median 7.1 %, H100 6.7 %; with p = ∞ (the
// plain max) 6.4 % and 8.2 %. A 10 % bound leaves room for nothing but a broken model.
TEST(KernelModelValidation, UncalibratedTilesFollowVidurGemms) {
  EXPECT_LT(held_out_median_error("a100", "dgx-a100"), 0.10);
  EXPECT_LT(held_out_median_error("h100", "dgx-h100"), 0.10);
  EXPECT_LT(held_out_median_error("a100", "dgx-a100", true), 0.10);
  EXPECT_LT(held_out_median_error("h100", "dgx-h100", true), 0.10);
}

// Whole models at batch 1 against Torpor Table 4's "Native" column (V100, PyTorch eager; REFERENCE.md
// §5.6), fp32 at the V100's 15.7 TFLOP/s. Eager mode issues one kernel per operator from the CPU,
// so a small kernel costs at least the host's dispatch time c: T = Σ max(t_kernel, c), with c
// fitted on ResNet-50 alone and the other seven models held out. BERT-large QA is compute-bound
// and needs no c. Measured here: c = 63 µs; held-out errors +9 % (ResNet-101), +30 % (ResNet-152),
// +25 % / +24 % (DenseNet-169/201), +5 % (Inception v3), -11 % (EfficientNet-B0), +9 % (BERT-QA);
// median 11 %. The deeper models' per-operator cost is lower than ResNet-50's (49-51 µs), which a
// single constant cannot follow.
TEST(KernelModelValidation, EagerModelsAgainstTorporTable4) {
  const DeviceRates v100{80, 15.7e12, 900e9, 2 * 900e9 / 80, 0.75, 0};
  const GpuLimits lim = gpu_limits_for("V100-SXM2-32GB");
  const DataType fp32{"fp32", 4, 1.0};
  const auto eager_s = [&](const char* model, double dispatch_s) {
    double t = 0;
    for (const TimedKernel& k : model_latency(network_shape(model, 1), fp32, v100, lim, 80, 1.0).kernels)
      t += std::max(k.time_s, dispatch_s);
    return t;
  };
  double lo = 0, hi = 1e-3;
  for (int i = 0; i < 60; ++i) {
    const double mid = (lo + hi) / 2;
    (eager_s("resnet50", mid) < 11e-3 ? lo : hi) = mid;
  }
  std::printf("dispatch per operator fitted on ResNet-50 (11 ms): %.1f us\n", lo * 1e6);
  EXPECT_GT(lo, 20e-6);
  EXPECT_LT(lo, 120e-6);
  struct Row {
    const char* model;
    double native_s;
  };
  const Row held_out[] = {{"resnet101", 20e-3},   {"resnet152", 25e-3},    {"densenet169", 30e-3}, {"densenet201", 36e-3},
                          {"inception_v3", 19e-3}, {"efficientnet_b0", 17e-3}, {"bert_qa", 42e-3}};
  std::vector<double> errors;
  for (const Row& r : held_out) {
    const double p = eager_s(r.model, lo);
    errors.push_back(std::abs(p - r.native_s) / r.native_s);
    std::printf("%-16s predicted %6.2f ms, measured %4.0f ms, %+5.1f %%\n", r.model, p * 1e3, r.native_s * 1e3,
                100 * (p - r.native_s) / r.native_s);
  }
  EXPECT_LT(median(errors), 0.20);
  // The compute-bound model owes nothing to the fitted dispatch time.
  EXPECT_NEAR(eager_s("bert_qa", 0) / 42e-3, 1.0, 0.15);
}

}  // namespace
}  // namespace parallax

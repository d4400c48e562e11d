// File: models/validation/validation_test.cpp
// Held-out accuracy of the GEMM and ring models against vidur's measurements (tests/data/vidur).
// Bounds are the errors measured when the fit was made (docs/models.md, parallax-validate-models)
// plus about 25 % of margin; they fail if the model, the fit or the data regress. The shipped
// constants must equal a fresh fit, and models/calibration/*.yaml must equal the constants.
#include <string>

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "models/calibrated_defaults.h"
#include "models/validation/gemm_validation.h"
#include "models/validation/nccl_validation.h"
#include "models/validation/ring_validation.h"
#include "models/validation/vidur_data.h"

namespace parallax::models {
namespace {

std::string data(const std::string& rel) { return source_dir() + "/tests/data/vidur/" + rel; }

const ErrorSummary& group(const std::vector<GroupErrors>& groups, const std::string& name) {
  for (const auto& g : groups) {
    if (g.group == name) return g.errors;
  }
  throw std::runtime_error("no group " + name);
}

void expect_same_gemm(const GpuComputeParams& a, const GpuComputeParams& b, double rel) {
  EXPECT_EQ(a.tile_m, b.tile_m);
  EXPECT_EQ(a.tile_n, b.tile_n);
  EXPECT_NEAR(a.eta_max, b.eta_max, rel * b.eta_max);
  EXPECT_NEAR(a.k_half, b.k_half, rel * b.k_half);
  EXPECT_NEAR(a.eta_mem, b.eta_mem, rel * b.eta_mem);
  EXPECT_NEAR(a.overhead_s, b.overhead_s, rel * b.overhead_s);
}

TEST(VidurData, ShapesAndCounts) {
  const auto rows = read_vidur_gemm_csv(data("compute/a100/llama2_7b_gemm.csv"));
  EXPECT_EQ(rows.size(), 4u * 1044u);
  // Up-projection, TP 8, m tokens: m × 2·11008/8 × 4096.
  const GemmShape s = llama_operator_shape("mlp_up_proj", 7, 8, 4096, 11008);
  EXPECT_EQ(s.n, 2752);
  EXPECT_EQ(s.k, 4096);
  EXPECT_EQ(llama_operator_shape("mlp_down_proj", 7, 8, 4096, 11008).k, 1376);
  const auto net = read_vidur_all_reduce_csv(data("network/h100_dgx/all_reduce_rank0.csv"));
  EXPECT_EQ(net.size(), 3u * 994u);
  EXPECT_THROW(read_vidur_gemm_csv(data("missing.csv")), std::runtime_error);
}

// Measured at fit time (held-out, refit): A100 median 6.0 %, P95 19.9 %, m ≥ 1024 P95 13.7 %;
// H100 median 7.8 %, P95 22.5 %, m ≥ 1024 P95 18.8 %.
TEST(GemmValidation, A100HeldOut) {
  const auto rows = read_vidur_gemm_csv(data("compute/a100/llama2_7b_gemm.csv"));
  const GemmValidation v = fit_and_validate_gemm(rows, a100_sxm_hardware());
  EXPECT_EQ(v.held_out.count, 1024);
  EXPECT_LT(v.held_out.median, 0.075);
  EXPECT_LT(v.held_out.p95, 0.25);
  EXPECT_LT(group(v.by_tokens, "m >= 1024").p95, 0.17);
  expect_same_gemm(v.params, a100_sxm_gemm_calibrated(), 0.01);
}

TEST(GemmValidation, H100HeldOut) {
  const auto rows = read_vidur_gemm_csv(data("compute/h100/llama2_7b_gemm.csv"));
  const GemmValidation v = fit_and_validate_gemm(rows, h100_sxm_hardware());
  EXPECT_LT(v.held_out.median, 0.10);
  EXPECT_LT(v.held_out.p95, 0.28);
  EXPECT_LT(group(v.by_tokens, "m >= 1024").p95, 0.235);
  expect_same_gemm(v.params, h100_sxm_gemm_calibrated(), 0.01);
}

// Ring bounds (held-out, per GPU count): > 8 MiB P95 and 64 KiB–8 MiB median, measured
// A100: P95 11.2/15.6/17.3 %, median 15.2/15.7/13.3 %; H100: P95 10.0/7.5/10.2 %,
// median 22.2/9.8/4.5 % for 2/4/8 GPUs. The < 64 KiB band has 2 held-out points per count and
// run-to-run noise of ±50 %: reported in docs/models.md, not asserted.
struct RingBound {
  int64_t ranks;
  double large_p95;
  double mid_median;
};

void check_ring(const RingValidation& v, const std::vector<RingBound>& bounds, double all_median) {
  EXPECT_LT(v.held_out.median, all_median);
  for (const RingBound& b : bounds) {
    for (const auto& g : v.by_ranks_and_band) {
      if (g.ranks != b.ranks) continue;
      if (g.band == ">8MiB") {
        EXPECT_LT(g.errors.p95, b.large_p95) << b.ranks << " GPUs";
      }
      if (g.band == "64KiB-8MiB") {
        EXPECT_LT(g.errors.median, b.mid_median) << b.ranks << " GPUs";
      }
    }
  }
}

TEST(RingValidation, A100DgxHeldOut) {
  const auto rows = read_vidur_all_reduce_csv(data("network/a100_dgx/all_reduce_rank0.csv"));
  const RingValidation v = fit_and_validate_ring(rows, kA100NvlinkPerGpu_Bps);
  ASSERT_EQ(v.by_ranks_and_band.size(), 9u);
  check_ring(v, {{2, 0.14, 0.19}, {4, 0.195, 0.20}, {8, 0.215, 0.17}}, 0.14);
  const RingFit shipped = a100_dgx_ring_calibrated();
  EXPECT_NEAR(v.fit.base_latency_s, shipped.base_latency_s, 0.01 * shipped.base_latency_s);
  EXPECT_NEAR(v.fit.step_latency_s, shipped.step_latency_s, 0.01 * shipped.step_latency_s);
  EXPECT_NEAR(v.fit.bandwidth_efficiency, shipped.bandwidth_efficiency, 1e-3);
}

TEST(RingValidation, H100DgxHeldOut) {
  const auto rows = read_vidur_all_reduce_csv(data("network/h100_dgx/all_reduce_rank0.csv"));
  const RingValidation v = fit_and_validate_ring(rows, kH100NvlinkPerGpu_Bps);
  check_ring(v, {{2, 0.125, 0.28}, {4, 0.095, 0.125}, {8, 0.13, 0.06}}, 0.075);
  const RingFit shipped = h100_dgx_ring_calibrated();
  EXPECT_NEAR(v.fit.base_latency_s, shipped.base_latency_s, 0.01 * shipped.base_latency_s);
  EXPECT_NEAR(v.fit.step_latency_s, shipped.step_latency_s, 0.01 * shipped.step_latency_s);
  EXPECT_NEAR(v.fit.bandwidth_efficiency, shipped.bandwidth_efficiency, 1e-3);
}

// NCCL's protocol model (nccl_validation.h): calibrated per GPU count on the training sizes,
// errors on the held-out ones; the preset (nothing fitted) on every row. Bounds: the numbers of
// docs/models.md plus about 25 %.
const ErrorSummary& nccl_band(const NcclValidation& v, int64_t ranks, const std::string& band) {
  for (const auto& g : v.by_ranks_and_band)
    if (g.ranks == ranks && g.band == band) return g.errors;
  throw std::runtime_error("no band " + band);
}

TEST(NcclValidation, A100Dgx) {
  const auto rows = read_vidur_all_reduce_csv(data("network/a100_dgx/all_reduce_rank0.csv"));
  const NcclValidation cal = validate_nccl_calibrated(rows, VidurNodes::one);
  EXPECT_LT(cal.all.median, 0.03);
  EXPECT_LT(cal.all.p95, 0.41);
  for (int64_t p : {2, 4, 8}) EXPECT_LT(nccl_band(cal, p, ">8MiB").median, 0.025) << p;
  const NcclValidation preset = validate_nccl_preset(rows, dgx_a100_nccl_box(), VidurNodes::one);
  EXPECT_LT(preset.all.median, 0.43);
}

TEST(NcclValidation, H100Dgx) {
  const auto rows = read_vidur_all_reduce_csv(data("network/h100_dgx/all_reduce_rank0.csv"));
  const NcclValidation cal = validate_nccl_calibrated(rows, VidurNodes::one);
  EXPECT_LT(cal.all.median, 0.062);
  EXPECT_LT(cal.all.p95, 0.33);
  for (int64_t p : {2, 4, 8}) EXPECT_LT(nccl_band(cal, p, ">8MiB").median, 0.067) << p;
  const NcclValidation preset = validate_nccl_preset(rows, dgx_h100_nccl_box(), VidurNodes::one);
  EXPECT_LT(preset.all.median, 0.125);
  EXPECT_LT(nccl_band(preset, 8, ">8MiB").median, 0.12);  // 9.5 % at commit time: ring 12 × 30 = 360 GB/s as NCCL plans it
  EXPECT_LT(nccl_band(preset, 4, ">8MiB").median, 0.05);
}

const ErrorSummary& from_1MiB(const NcclValidation& v, int64_t ranks) {
  for (const auto& g : v.from_1MiB)
    if (g.ranks == ranks) return g.errors;
  throw std::runtime_error("no >=1MiB group");
}

// vidur's two-node A100 rows (2 × 1/2/4/8 GPUs). The preset (8 × HDR 25 GB/s per box) predicts
// 5–10× the bandwidth these runs reached (docs/models.md): the bounds below record that, they do
// not meet issue 18's 15 % bar. The calibrated fit per GPU count does.
TEST(NcclValidation, A100TwoNodes) {
  const auto rows = read_vidur_all_reduce_csv(data("network/a100_dgx/all_reduce_rank0.csv"));
  const NcclValidation preset = validate_nccl_preset(rows, dgx_a100_nccl_box(), VidurNodes::two);
  EXPECT_EQ(preset.all.count, 3976u);
  EXPECT_LT(from_1MiB(preset, 16).median, 0.95);  // 88.4 % at commit time (docs/models.md)
  const NcclValidation cal = validate_nccl_calibrated(rows, VidurNodes::two);
  EXPECT_LT(cal.all.median, 0.035);
  EXPECT_LT(from_1MiB(cal, 16).median, 0.07);
  EXPECT_LT(from_1MiB(cal, 2).median, 0.02);
}

TEST(Calibration, YamlMirrorsCodeConstants) {
  const std::string dir = source_dir() + "/models/calibration/";
  const std::pair<const char*, GpuComputeParams> gemms[] = {
      {"gemm_a100.yaml", a100_sxm_gemm_calibrated()}, {"gemm_h100.yaml", h100_sxm_gemm_calibrated()}};
  for (const auto& [file, p] : gemms) {
    SCOPED_TRACE(file);
    const YAML::Node y = YAML::LoadFile(dir + file);
    EXPECT_EQ(y["sms"].as<int64_t>(), p.sms);
    EXPECT_DOUBLE_EQ(y["peak_flops"].as<double>(), p.peak_flops);
    EXPECT_DOUBLE_EQ(y["hbm_Bps"].as<double>(), p.hbm_Bps);
    EXPECT_EQ(y["tile_m"].as<int64_t>(), p.tile_m);
    EXPECT_EQ(y["tile_n"].as<int64_t>(), p.tile_n);
    EXPECT_DOUBLE_EQ(y["eta_max"].as<double>(), p.eta_max);
    EXPECT_DOUBLE_EQ(y["k_half"].as<double>(), p.k_half);
    EXPECT_DOUBLE_EQ(y["eta_mem"].as<double>(), p.eta_mem);
    EXPECT_DOUBLE_EQ(y["overhead_s"].as<double>(), p.overhead_s);
  }
  const std::pair<const char*, RingFit> rings[] = {
      {"ring_a100_dgx.yaml", a100_dgx_ring_calibrated()},
      {"ring_h100_dgx.yaml", h100_dgx_ring_calibrated()}};
  for (const auto& [file, f] : rings) {
    SCOPED_TRACE(file);
    const YAML::Node y = YAML::LoadFile(dir + file);
    EXPECT_DOUBLE_EQ(y["link_Bps"].as<double>(), f.link_Bps);
    EXPECT_DOUBLE_EQ(y["base_latency_s"].as<double>(), f.base_latency_s);
    EXPECT_DOUBLE_EQ(y["step_latency_s"].as<double>(), f.step_latency_s);
    EXPECT_DOUBLE_EQ(y["bandwidth_efficiency"].as<double>(), f.bandwidth_efficiency);
  }
}

}  // namespace
}  // namespace parallax::models

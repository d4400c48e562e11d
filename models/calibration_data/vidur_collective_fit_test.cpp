// File: models/calibration_data/vidur_collective_fit_test.cpp
// The nccl-tests fit path (fit_nccl_tests) on measured NCCL all-reduce times: vidur's single-node
// DGX rank-0 medians (tests/data/vidur/network, microsoft/vidur 7d47513), one fit per GPU count,
// as `parallax fit --nccl-tests` would make from an all_reduce_perf log of that group. The printed
// errors are the ones docs/calibration.md quotes.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "models/calibrated_defaults.h"
#include "models/calibration_data/nccl_net_fit.h"
#include "models/calibration_data/nccl_tests_fit.h"
#include "models/validation/nccl_validation.h"
#include "models/validation/vidur_data.h"

namespace parallax::models {
namespace {

NcclTestsLog as_log(const std::vector<VidurAllReduceRow>& rows, int64_t ranks, int64_t per_node = 0) {
  NcclTestsLog log;
  log.ranks = static_cast<int>(ranks);
  log.collective = "all_reduce";
  for (const VidurAllReduceRow& r : rows) {
    if (r.ranks != ranks || r.devices_per_node != (per_node > 0 ? per_node : ranks)) continue;
    NcclTestsRow row;
    row.bytes = r.bytes;
    row.out_of_place.time_s = r.median_s;
    log.rows.push_back(row);
  }
  return log;
}

void fit_box(const std::string& box, double link_Bps, double max_median) {
  const auto rows = read_vidur_all_reduce_csv(source_dir() + "/tests/data/vidur/network/" + box + "/all_reduce_rank0.csv");
  for (int64_t ranks : {2, 4, 8}) {
    const NcclTestsLog log = as_log(rows, ranks);
    ASSERT_GE(log.rows.size(), 8u) << box << " " << ranks;
    const NcclTestsFit fit = fit_nccl_tests(log, CollectiveOp::all_reduce, static_cast<int>(ranks), link_Bps);
    std::printf("%s x%lld: %d rows, eta %.4f, base %.3g s, step %.3g s; median %.3f p95 %.3f max %.3f; "
                "held-out median %.3f p95 %.3f max %.3f\n",
                box.c_str(), static_cast<long long>(ranks), fit.calibration.rows, fit.calibration.bandwidth_efficiency,
                fit.calibration.base_latency_s, fit.calibration.step_latency_s, fit.calibration.median_rel_error,
                fit.calibration.p95_rel_error, fit.calibration.max_rel_error, fit.held_out.median, fit.held_out.p95,
                fit.held_out.max);
    EXPECT_LT(fit.held_out.median, max_median) << box << " x" << ranks;
  }
}

TEST(VidurCollectiveFit, H100Dgx) { fit_box("h100_dgx", kH100NvlinkPerGpu_Bps, 0.06); }
TEST(VidurCollectiveFit, A100Dgx) { fit_box("a100_dgx", kA100NvlinkPerGpu_Bps, 0.13); }

// Does NCCL's structure carry a network fitted on one two-node group to the others? The NIC rate
// and latencyInter fitted on vidur's 2 × 8 A100 rows (every size) predict 2 × 1, 2 × 2, 2 × 4.
// Printed for docs/models.md. It does not: NCCL's structure with a fitted NIC rate and
// latencyInter misses the 2 × 8 rows themselves by 32 % median, and the others by 100–250 %
// (vidur's two-node network does not behave like per-GPU NICs); the bound records that result.
TEST(VidurCollectiveFit, A100TwoNodeNetworkAcrossGroupSizes) {
  const auto rows = read_vidur_all_reduce_csv(source_dir() + "/tests/data/vidur/network/a100_dgx/all_reduce_rank0.csv");
  NcclBox box = dgx_a100_nccl_box();
  box.net.nodes = 2;
  const NcclNetFit fit = fit_nccl_net(as_log(rows, 16, 8), CollectiveOp::all_reduce, 16, box);
  std::printf("a100 2x8 network fit: nic %.3g GB/s, latencyInter %.3g us; in-sample median %.3f max %.3f; held-out median %.3f\n",
              fit.nic_Bps / 1e9, fit.hop_latency_s * 1e6, fit.in_sample.median, fit.in_sample.max, fit.held_out.median);
  EXPECT_LT(fit.held_out.median, 0.35);
  box.net.nic_Bps = fit.nic_Bps;
  box.net.hop_latency_s = fit.hop_latency_s;
  for (int64_t per_node : {1, 2, 4}) {
    const NcclTestsLog log = as_log(rows, 2 * per_node, per_node);
    const std::vector<NcclCandidate> c = nccl_candidates(CollectiveOp::all_reduce, 2 * per_node, box);
    std::vector<double> e;
    for (const NcclTestsRow& r : log.rows)
      e.push_back(relative_error(choose_nccl(CollectiveOp::all_reduce, 2 * per_node, r.bytes, c).cost.time_s, r.out_of_place.time_s));
    const ErrorSummary s = summarize_errors(e);
    std::printf("  2x%lld with the 2x8 network: n %lld median %.3f P95 %.3f max %.3f\n", static_cast<long long>(per_node),
                static_cast<long long>(s.count), s.median, s.p95, s.max);
    EXPECT_GT(s.count, 900);
  }
}

}  // namespace
}  // namespace parallax::models

// File: models/calibration_data/nccl_net_fit.cpp
// Grid search of NIC rate and latencyInter (nccl_net_fit.h).
#include "models/calibration_data/nccl_net_fit.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "models/calibration_data/data_error.h"

namespace parallax::models {
namespace {

struct NetSample {
  double bytes = 0.0;
  double seconds = 0.0;
};

// Search ranges: 0.5–400 GB/s per NIC (a 4 Gb/s link to 3.2 Tb/s), latencyInter 0 or 0.1–500 µs.
constexpr double kMinNic_Bps = 0.5e9, kMaxNic_Bps = 400e9;
constexpr double kMinHop_s = 0.1e-6, kMaxHop_s = 500e-6;
constexpr int kCoarse = 48;
constexpr int kFine = 24;

std::vector<NetSample> net_samples(const NcclTestsLog& log) {
  std::vector<NetSample> out;
  for (const NcclTestsRow& r : log.rows)
    if (!r.out_of_place.wrong && r.out_of_place.time_s > 0 && r.bytes > 0) out.push_back({r.bytes, r.out_of_place.time_s});
  if (out.size() < 4)
    throw DataError(log.path, log.rows.empty() ? 0 : log.rows.back().line,
                    "fewer than 4 usable rows (out-of-place time > 0, #wrong 0): no network fit");
  return out;
}

NcclBox with_net(NcclBox box, double nic_Bps, double hop_s) {
  box.net.nic_Bps = nic_Bps;
  box.net.hop_latency_s = hop_s;
  return box;
}

double net_loss(const std::vector<NetSample>& s, CollectiveOp op, int ranks, const NcclBox& box) {
  const std::vector<NcclCandidate> c = nccl_candidates(op, ranks, box);
  double sum = 0.0;
  for (const NetSample& x : s) {
    const double e = std::log(choose_nccl(op, ranks, x.bytes, c).cost.time_s / x.seconds);
    sum += e * e;
  }
  return sum / static_cast<double>(s.size());
}

ErrorSummary net_errors(const std::vector<NetSample>& s, CollectiveOp op, int ranks, const NcclBox& box) {
  const std::vector<NcclCandidate> c = nccl_candidates(op, ranks, box);
  std::vector<double> e;
  for (const NetSample& x : s) e.push_back(relative_error(choose_nccl(op, ranks, x.bytes, c).cost.time_s, x.seconds));
  return summarize_errors(e);
}

// The i-th of n log-spaced points in [lo, hi]; point −1 stands for 0 (latencyInter may be none).
double log_point(double lo, double hi, int i, int n) {
  return i < 0 ? 0.0 : lo * std::pow(hi / lo, static_cast<double>(i) / (n - 1));
}

NcclBox search_network(const std::vector<NetSample>& s, CollectiveOp op, int ranks, const NcclBox& box) {
  double best = std::numeric_limits<double>::infinity();
  int bi = 0, bj = -1;
  for (int i = 0; i < kCoarse; ++i)
    for (int j = -1; j < kCoarse; ++j) {
      const double l = net_loss(s, op, ranks, with_net(box, log_point(kMinNic_Bps, kMaxNic_Bps, i, kCoarse), log_point(kMinHop_s, kMaxHop_s, j, kCoarse)));
      if (l < best) {
        best = l;
        bi = i;
        bj = j;
      }
    }
  // Refine between the neighbours of the best coarse point.
  const double nic_lo = log_point(kMinNic_Bps, kMaxNic_Bps, std::max(bi - 1, 0), kCoarse);
  const double nic_hi = log_point(kMinNic_Bps, kMaxNic_Bps, std::min(bi + 1, kCoarse - 1), kCoarse);
  const double hop_lo = bj <= 0 ? kMinHop_s : log_point(kMinHop_s, kMaxHop_s, bj - 1, kCoarse);
  const double hop_hi = log_point(kMinHop_s, kMaxHop_s, std::min(bj + 1, kCoarse - 1), kCoarse);
  NcclBox out = with_net(box, log_point(kMinNic_Bps, kMaxNic_Bps, bi, kCoarse), log_point(kMinHop_s, kMaxHop_s, bj, kCoarse));
  for (int i = 0; i < kFine; ++i)
    for (int j = bj < 0 ? -1 : 0; j < kFine; ++j) {
      const NcclBox b = with_net(box, log_point(nic_lo, nic_hi, i, kFine), log_point(hop_lo, hop_hi, j, kFine));
      const double l = net_loss(s, op, ranks, b);
      if (l < best) {
        best = l;
        out = b;
      }
    }
  return out;
}

}  // namespace

NcclNetFit fit_nccl_net(const NcclTestsLog& log, CollectiveOp op, int ranks, const NcclBox& box) {
  if (box.net.nodes < 2) throw std::invalid_argument("fit_nccl_net: a network fit needs a log of 2 nodes or more");
  const std::vector<NetSample> s = net_samples(log);
  const NcclBox all = search_network(s, op, ranks, box);
  NcclNetFit fit;
  fit.nic_Bps = all.net.nic_Bps;
  fit.hop_latency_s = all.net.hop_latency_s;
  fit.in_sample = net_errors(s, op, ranks, all);
  std::vector<NetSample> train, test;
  for (size_t i = 0; i < s.size(); ++i) (i % 4 == 3 ? test : train).push_back(s[i]);
  fit.held_out = net_errors(test, op, ranks, search_network(train, op, ranks, box));
  return fit;
}

}  // namespace parallax::models

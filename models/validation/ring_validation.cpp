// File: models/validation/ring_validation.cpp
// Split by size, fit the uniform ring, summarise held-out errors by (ranks, band).
#include "models/validation/ring_validation.h"

#include <map>
#include <set>
#include <utility>

#include "models/ring.h"

namespace parallax::models {
namespace {

constexpr double kKiB = 1024.0;
constexpr double kMiB = 1024.0 * 1024.0;

int band_order(const std::string& band) {
  if (band == "<64KiB") return 0;
  if (band == "64KiB-8MiB") return 1;
  return 2;
}

std::set<double> held_out_sizes(const std::vector<VidurAllReduceRow>& rows) {
  std::set<double> distinct;
  for (const VidurAllReduceRow& r : rows) distinct.insert(r.bytes);
  std::set<double> held;
  int64_t rank = 0;
  for (double s : distinct) {
    if (rank++ % 4 == 3) held.insert(s);
  }
  return held;
}

bool single_node(const VidurAllReduceRow& r) { return r.devices_per_node == r.ranks; }

}  // namespace

std::string size_band(double bytes) {
  if (bytes < 64 * kKiB) return "<64KiB";
  if (bytes <= 8 * kMiB) return "64KiB-8MiB";
  return ">8MiB";
}

RingValidation validate_ring(const std::vector<VidurAllReduceRow>& rows, const RingFit& fit) {
  const std::set<double> held = held_out_sizes(rows);
  RingValidation out;
  out.fit = fit;
  std::vector<double> all;
  std::map<std::pair<int64_t, int>, std::pair<std::string, std::vector<double>>> groups;
  for (const VidurAllReduceRow& r : rows) {
    if (!single_node(r) || !held.contains(r.bytes)) continue;
    const double predicted = ring_cost(CollectiveOp::all_reduce, r.bytes, fit.ring(r.ranks)).time_s;
    const double e = relative_error(predicted, r.median_s);
    all.push_back(e);
    const std::string band = size_band(r.bytes);
    auto& g = groups[{r.ranks, band_order(band)}];
    g.first = band;
    g.second.push_back(e);
  }
  out.held_out = summarize_errors(all);
  for (const auto& [key, group] : groups) {
    out.by_ranks_and_band.push_back({key.first, group.first, summarize_errors(group.second)});
  }
  return out;
}

RingValidation fit_and_validate_ring(const std::vector<VidurAllReduceRow>& rows, double link_Bps) {
  const std::set<double> held = held_out_sizes(rows);
  std::vector<CollectiveSample> train;
  for (const VidurAllReduceRow& r : rows) {
    if (!single_node(r) || held.contains(r.bytes)) continue;
    train.push_back({CollectiveOp::all_reduce, r.ranks, r.bytes, r.median_s});
  }
  return validate_ring(rows, fit_uniform_ring(train, link_Bps));
}

}  // namespace parallax::models

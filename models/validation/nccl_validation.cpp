// File: models/validation/nccl_validation.cpp
// Preset and calibrated protocol models against vidur all-reduce medians (nccl_validation.h).
#include "models/validation/nccl_validation.h"

#include <map>
#include <set>
#include <utility>

#include "models/calibrated_defaults.h"
#include "models/protocol_fit.h"

namespace parallax::models {
namespace {

constexpr double kOneMiB = 1024.0 * 1024.0;
constexpr int kDgxGpus = 8;

int nccl_band_order(const std::string& band) { return band == "<64KiB" ? 0 : band == "64KiB-8MiB" ? 1 : 2; }

bool selected(const VidurAllReduceRow& r, VidurNodes nodes) {
  return nodes == VidurNodes::one ? r.devices_per_node == r.ranks : r.devices_per_node * 2 == r.ranks;
}

struct Grouped {
  std::vector<double> all;
  std::map<std::pair<int64_t, int>, std::pair<std::string, std::vector<double>>> groups;
  std::map<int64_t, std::vector<double>> large;

  void add(const VidurAllReduceRow& r, double predicted) {
    const double e = relative_error(predicted, r.median_s);
    all.push_back(e);
    const std::string band = size_band(r.bytes);
    auto& g = groups[{r.ranks, nccl_band_order(band)}];
    g.first = band;
    g.second.push_back(e);
    if (r.bytes >= kOneMiB) large[r.ranks].push_back(e);
  }
  NcclValidation summary() const {
    NcclValidation out;
    out.all = summarize_errors(all);
    for (const auto& [key, g] : groups) out.by_ranks_and_band.push_back({key.first, g.first, summarize_errors(g.second)});
    for (const auto& [ranks, e] : large) out.from_1MiB.push_back({ranks, ">=1MiB", summarize_errors(e)});
    return out;
  }
};

std::set<double> every_fourth_size(const std::vector<VidurAllReduceRow>& rows) {
  std::set<double> distinct;
  for (const VidurAllReduceRow& r : rows) distinct.insert(r.bytes);
  std::set<double> held;
  int64_t i = 0;
  for (double s : distinct)
    if (i++ % 4 == 3) held.insert(s);
  return held;
}

NcclBox dgx_box(GpuGeneration g, double nvlink_Bps, double nic_Bps) {
  NcclBox box;
  box.generation = g;
  box.link = LinkType::nvlink;
  box.link_Bps = nvlink_Bps;
  box.net.gpus_per_node = kDgxGpus;
  box.net.nics_per_node = kDgxGpus;
  box.net.nic_Bps = nic_Bps;
  return box;
}

}  // namespace

NcclBox dgx_a100_nccl_box() { return dgx_box(GpuGeneration::ampere, kA100NvlinkPerGpu_Bps, 200e9 / 8); }
NcclBox dgx_h100_nccl_box() { return dgx_box(GpuGeneration::hopper, kH100NvlinkPerGpu_Bps, 400e9 / 8); }

NcclValidation validate_nccl_preset(const std::vector<VidurAllReduceRow>& rows, const NcclBox& box, VidurNodes nodes) {
  Grouped g;
  std::map<int64_t, std::vector<NcclCandidate>> candidates;
  for (const VidurAllReduceRow& r : rows) {
    if (!selected(r, nodes)) continue;
    auto it = candidates.find(r.ranks);
    if (it == candidates.end()) {
      NcclBox b = box;
      b.net.nodes = static_cast<int>(r.ranks / r.devices_per_node);
      it = candidates.emplace(r.ranks, nccl_candidates(CollectiveOp::all_reduce, r.ranks, b)).first;
    }
    g.add(r, choose_nccl(CollectiveOp::all_reduce, r.ranks, r.bytes, it->second).cost.time_s);
  }
  return g.summary();
}

NcclValidation validate_nccl_calibrated(const std::vector<VidurAllReduceRow>& rows, VidurNodes nodes) {
  const std::set<double> held = every_fourth_size(rows);
  std::map<int64_t, std::vector<TimedSize>> train;
  for (const VidurAllReduceRow& r : rows)
    if (selected(r, nodes) && !held.contains(r.bytes)) train[r.ranks].push_back({r.bytes, r.median_s});
  std::map<int64_t, std::vector<NcclCandidate>> fits;
  for (const auto& [ranks, samples] : train) fits[ranks] = fit_protocols(CollectiveOp::all_reduce, ranks, samples, "ring");
  Grouped g;
  for (const VidurAllReduceRow& r : rows) {
    if (!selected(r, nodes) || !held.contains(r.bytes) || !fits.contains(r.ranks)) continue;
    g.add(r, choose_nccl(CollectiveOp::all_reduce, r.ranks, r.bytes, fits.at(r.ranks)).cost.time_s);
  }
  return g.summary();
}

}  // namespace parallax::models

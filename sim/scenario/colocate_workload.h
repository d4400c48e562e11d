// File: sim/scenario/colocate_workload.h
// workload.kind == "colocate": an LS inference service (arrival process, SLO) sharing one GPU
// with a BE inference job, run once per listed policy (docs/colocate.md; run by
// sim/experiment/colocate_experiment.cpp).
//
//   workload:
//     kind: colocate
//     ls: {model: resnet50, batch: 8, slo_ms: 10,            # catalog model
//          arrivals: {kind: mmpp, rate_on_per_s: 3000, rate_off_per_s: 200, mean_on_s: 0.02, mean_off_s: 0.08}}
//     be: {model: resnet152, batch: 64}
//     # or, instead of ls and be, several pairs, each run under every policy (summary.json `pairs`):
//     # pairs: [{ls: {...as above...}, be: {...}}, ...]
//     duration_s: 2                       # LS arrivals and BE run for this long
//     policies: [ls_alone, mps, static_split, mig, orion, temporal, sgdrc]
//     slo_target: 0.99                    # optional: attainment that counts as meeting the SLO
//     sgdrc_eviction: kernel              # optional: kernel | block (sgdrc_colocation.h)
//     static_ls_sms: 64                   # optional: static_split's LS group (green-context sizes)
//     mig: {ls: {profile: 4g.71gb, start: 0}, be: {profile: 3g.71gb, start: 4}}   # optional
//     mps_be_percentage: 100              # optional: BE's active-thread limit under mps
//     interference: {l2_other: 0.1}       # optional: models/kernel_interference.h coefficients
//     trace_policy: sgdrc                 # optional: the policy whose kernels go to trace.json
#pragma once

#include <string>
#include <vector>

#include "models/kernel_interference.h"
#include "sim/scenario/config_tree.h"
#include "sim/workload/arrival_process.h"

namespace parallax {

struct Scenario;
struct WorkloadContext;

// One LS service and one BE job.
struct ColocatePair {
  std::string ls_model;
  int ls_batch = 1;
  ArrivalProcessSpec ls_arrivals;
  double ls_slo_s = 0;
  std::string be_model;
  int be_batch = 1;
};

struct ColocateWorkloadSpec {
  // Every pair, in file order; ls_* and be_* below repeat pairs[0], the pair whose kernels go to
  // trace.json, kernels.csv and the timeline.
  std::vector<ColocatePair> pairs;
  bool pairs_listed = false;  // written as `pairs:` (summary.json then has `pairs`)
  std::string ls_model;
  int ls_batch = 1;
  ArrivalProcessSpec ls_arrivals;
  double ls_slo_s = 0;
  std::string be_model;
  int be_batch = 1;
  double duration_s = 1;
  std::vector<std::string> policies;
  double slo_target = 0.99;
  std::string sgdrc_eviction = "kernel";
  int static_ls_sms = 0;  // 0 = half the GPU rounded to its green-context granularity
  std::string mig_ls_profile, mig_be_profile;  // empty = 4g + 3g of the GPU's profiles
  int mig_ls_start = 0, mig_be_start = 4;
  double mps_be_percentage = 100;
  InterferenceCoefficients interference;
  std::string trace_policy;  // empty = the last listed policy
};

void read_colocate_workload(const ConfigNode& workload, const std::string& path, const WorkloadContext& context,
                            Scenario& scenario);

}  // namespace parallax

// File: sim/scenario/multiplex_workload.h
// workload.kind == "multiplex": several batched inference services (catalog models, their own
// arrival processes and SLOs) sharing one GPU, run once per listed policy (docs/multiplex.md; run
// by sim/experiment/multiplex_experiment.cpp).
//
//   workload:
//     kind: multiplex
//     duration_s: 2                      # arrivals on [0, duration)
//     services:
//       - {name: vision, model: resnet50, max_batch: 32, timeout_ms: 2, slo_ms: 15,
//          arrivals: {kind: gamma, rate_per_s: 1500, cv: 4}}
//       - {name: qa, model: bert_base, max_batch: 16, timeout_ms: 2, slo_ms: 25,
//          arrivals: {kind: mmpp, rate_on_per_s: 2000, rate_off_per_s: 50, mean_on_s: 0.05, mean_off_s: 0.2}}
//     policies: [timeslice, mps, mig, elastic]   # also dynamic_mig
//     trace_policy: elastic              # optional: the policy whose kernels go to trace.json
//     elastic_resize_cost_us: 0          # optional: launch hold after each elastic resize
//                                        # (sim/policies/multiplex/elastic_multiplex.h)
//     timeslice_switch_cost_us: 50       # optional: context switch when time slicing moves to
//                                        # another service (sim/policies/multiplex/static_multiplex.h)
//     mig_reconfig_cost_ms: 1000         # optional: dynamic_mig's re-cut time, instance idle
//                                        # (sim/policies/multiplex/dynamic_mig_multiplex.h)
//     mig_sizing: mean                   # optional: mean | peak, the rate MIG instances are sized
//     mig_peak_window_ms: 10             #   for; peak = this percentile of the arrival rate over
//     mig_peak_percentile: 99            #   windows this wide (sim/policies/multiplex/peak_rate.h)
//     slo_target: 0.99                   # optional: the fraction of every service's requests that
//                                        #   must finish within its SLO for a policy to meet it
//     max_load_search: {lo: 0.25, hi: 4, tolerance: 0.05}   # optional: per policy, bisect the
//                                        #   largest multiple of the offered load that still meets
//                                        #   slo_target (sim/policies/multiplex/max_load_search.h);
//                                        #   every key optional, `enabled: false` turns it off
//
// `arrivals` takes sim/workload/arrival_process.h's kinds: poisson, gamma (cv), mmpp, deterministic,
// and azure_llm: {kind: azure_llm, path: TRACE.csv, rate_per_s: R}, an Azure LLM inference trace
// (path relative to the scenario file) replayed with its time axis scaled to mean rate R
// (sim/workload/scaled_trace_process.h).
#pragma once

#include <string>
#include <vector>

#include "sim/scenario/config_tree.h"
#include "sim/workload/arrival_process.h"

namespace parallax {

struct Scenario;
struct WorkloadContext;

struct MultiplexServiceSpec {
  std::string name;
  std::string model;
  int max_batch = 1;
  double timeout_s = 0;
  double slo_s = 0;
  ArrivalProcessSpec arrivals;
  // Device memory the service needs at least: the catalog model's weights. Activations, workspace
  // and KV cache come on top and are not counted (the kernel model's activation *traffic* is no
  // estimate of live memory), so the check below never refuses a service that would fit. The
  // loader fails with exit 2 when the services' weights do not fit the GPU together (timeslice,
  // mps, elastic) or a service's weights fit no MIG instance (mig).
  double weight_bytes = 0;
};

struct MultiplexWorkloadSpec {
  double duration_s = 1;
  std::vector<MultiplexServiceSpec> services;
  std::vector<std::string> policies;
  std::string trace_policy;  // empty = the last listed policy
  double elastic_resize_cost_s = 0;
  // [assumption] 50 µs: REFERENCE.md §6.2 leaves time slicing's switch cost to measure; GPU
  // context switches (state save and restore) are reported in the tens to hundreds of µs.
  double timeslice_switch_cost_s = 50e-6;
  // [assumption] 1 s: REFERENCE.md §1.4 gives a MIG reshape (destroy + create, instance idle) as
  // "seconds" with no measured figure; 1 s is the low end.
  double mig_reconfig_cost_s = 1.0;
  // The rate the mig policy's layout search sizes each service's instance for: "mean" (its mean
  // offered rate) or "peak" (the mig_peak_percentile of its arrival rate over mig_peak_window_s
  // windows, sim/policies/multiplex/peak_rate.h). Other policies do not depend on it.
  std::string mig_sizing = "mean";
  double mig_peak_window_s = 0.01;
  double mig_peak_percentile = 99;
  // A policy meets the SLO when every service has at least this fraction of its requests within
  // its slo (summary: meets_slo_target, and the max_load_at_slo search below).
  double slo_target = 0.99;
  // max_load_at_slo: bisect the load multiple over [lo, hi] down to `tolerance` (one full run of
  // the policy per probe). Off unless the scenario has a `max_load_search` mapping.
  bool max_load_search = false;
  double max_load_lo = 0.25;
  double max_load_hi = 4.0;
  double max_load_tolerance = 0.05;
};

void read_multiplex_workload(const ConfigNode& workload, const std::string& path, const WorkloadContext& context,
                             Scenario& scenario);

}  // namespace parallax

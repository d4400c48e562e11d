// File: models/calibration_data/calibration_file.h
// A GPU's calibration: what `parallax fit` writes (results/calibration/<gpu>.yaml or --out) and
// what scenarios (`calibration:`), `parallax predict collective --calibration` and
// `parallax validate --calibration` read. Every section is optional; a section present was fitted
// from the rows its `rows` count names. Format and meaning: docs/calibration.md.
//
//   format: parallax-calibration/1
//   gpu: NVIDIA H200
//   provenance: {source: ..., rows: ..., gpu_name: ..., driver: ..., ..., fit_by: ...}
//   gemm: {sms, peak_flops, hbm_Bps, tile_m, tile_n, eta_max, k_half, eta_mem, overhead_s, rows, rms_log_error}
//   copy: [{kind, host_memory, latency_s, bandwidth_Bps, rows}]
//   launch: [{what, seconds, rows}]
//   interference: {l2_self, l2_other, dram_self, dram_other, constant, rows}
//   interdecom: [{m, n, k, copy_sms, copy_bytes, a_s, b_s, c_s, rows}]
//   sm_scaling: {bw_per_sm_Bps, hbm_Bps, flops_per_sm, [smoothing_p,] rows}
//   collectives: [{op, ranks, [nodes,] link_Bps, base_latency_s, step_latency_s, bandwidth_efficiency,
//                  rows, median_rel_error, p95_rel_error, max_rel_error,
//                  [network: {nics_per_node, nic_Bps, hop_latency_s, median_rel_error, held_out_median}]}]
//
// format_calibration_yaml writes it (deterministic: fixed key order, shortest round-trip numbers).
// The strict reader is sim/scenario/calibration_reader.h (YAML parsing stays out of models/).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/gemm_cost.h"
#include "models/kernel_interference.h"

namespace parallax::models {

struct CalibrationProvenance {
  std::string source;        // the measurement directory or log it was fitted from
  int rows = 0;              // measurement rows used by the fit
  std::string gpu_name;      // from the measurements (empty for a nccl-tests log without one)
  int sm_count = 0;
  std::string driver, cuda;
  std::optional<double> sm_clock_mhz, mem_clock_mhz;
  std::string date;          // of the measurements
  std::string git_commit;    // parallax commit that measured
  std::string fit_by;        // parallax commit that fitted
  std::string split;         // which rows were fitted on (docs/calibration.md)
};

struct GemmCalibration {
  GpuComputeParams params;
  int rows = 0;
  double rms_log_error = 0.0;
};

struct CopyCalibration {
  std::string kind;          // h2d | d2h | d2d | p2p
  std::string host_memory;   // pinned | pageable | none
  double latency_s = 0.0;
  double bandwidth_Bps = 0.0;
  int rows = 0;
};

struct LaunchCalibration {
  std::string what;          // launch | sync | event_record
  double seconds = 0.0;      // per item
  int rows = 0;
};

struct InterferenceCalibration {
  InterferenceCoefficients coefficients;
  int rows = 0;
};

struct InterDecomCalibration {
  long long m = 0, n = 0, k = 0, copy_sms = 0;
  double copy_bytes = 0.0;
  double a_s = 0.0, b_s = 0.0, c_s = 0.0;
  int rows = 0;
};

// How bandwidth and FLOP rate grow with SMs (the sm_scaling family): a streaming kernel on s SMs
// moves min(hbm_Bps, s·bw_per_sm_Bps) bytes/s, an FMA kernel does s·flops_per_sm FLOP/s.
struct SmScalingCalibration {
  double bw_per_sm_Bps = 0.0;
  double hbm_Bps = 0.0;       // the most any streaming row reached
  double flops_per_sm = 0.0;  // 0 when no FMA row was measured
  double smoothing_p = 0.0;   // p of models/kernel_time.h from the ridge rows; 0 when none was measured
  int rows = 0;
};

// One protocol of a group fitted by `parallax fit --nccl-tests`: time = latency_s + F·S/busbw_Bps
// (models/nccl_tuning.h); the group's prediction is the fastest of its protocols.
struct ProtocolCalibration {
  std::string algorithm;  // ring | p2p
  std::string protocol;   // LL | LL128 | Simple
  double latency_s = 0.0;
  double busbw_Bps = 0.0;
};

// The network of a multi-node group in NCCL's structure (nccl_net_fit.h): with the preset's box
// and NCCL's constants it answers for other node counts of the same op.
struct NetworkCalibration {
  int nics_per_node = 0;
  double nic_Bps = 0.0;
  double hop_latency_s = 0.0;     // tuning.cc's latencyInter
  double median_rel_error = 0.0;  // on the fitted log
  double held_out_median = 0.0;   // every 4th size held out
};

struct CollectiveCalibration {
  std::string op;            // a models::CollectiveOp name (all_reduce, ..., send_recv)
  std::vector<ProtocolCalibration> protocols;  // from fit --nccl-tests; empty: the one ring below
  int ranks = 0;
  int nodes = 1;             // boxes the ranks spanned (nccl-tests' hosts); a fit answers only for its own
  double link_Bps = 0.0;     // per-GPU link bandwidth η refers to
  double base_latency_s = 0.0;
  double step_latency_s = 0.0;
  double bandwidth_efficiency = 1.0;
  int rows = 0;
  double median_rel_error = 0.0, p95_rel_error = 0.0, max_rel_error = 0.0;  // on the fitted log
  std::optional<NetworkCalibration> network;  // multi-node logs only
};

struct Calibration {
  std::string gpu;
  CalibrationProvenance provenance;
  std::optional<GemmCalibration> gemm;
  std::vector<CopyCalibration> copy;
  std::vector<LaunchCalibration> launch;
  std::optional<InterferenceCalibration> interference;
  std::vector<InterDecomCalibration> interdecom;
  std::optional<SmScalingCalibration> sm_scaling;
  std::vector<CollectiveCalibration> collectives;

  const CopyCalibration* find_copy(const std::string& kind, const std::string& host_memory) const;
  const CollectiveCalibration* find_collective(const std::string& op, int ranks, int nodes) const;
  // The first fit of `op` that carries a network (for node counts no fit was made for).
  const CollectiveCalibration* find_network(const std::string& op) const;
};

inline constexpr const char* kCalibrationFormat = "parallax-calibration/1";

std::string format_calibration_yaml(const Calibration& calibration);

}  // namespace parallax::models

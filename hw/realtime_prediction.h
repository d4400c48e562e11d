// File: hw/realtime_prediction.h
// `parallax validate`'s model for the rows of the families that run policy objects: the row's
// colocate, serverless or multiplex trial or overlap task graph (colocate_trial.h,
// serverless_trial.h, multiplex_trial.h, overlap_trial.h) run on SimPlatform, on a one-GPU
// machine whose rates are what the calibration sweep measured where it can tell:
//   * FLOP/s and HBM bytes/s a launched kernel runs at: the intensity kernel's isolated co-run
//     rows on the whole GPU (compute: flops / s, memory: dram_bytes / s); else the row's config;
//   * kernel launch delay: the fitted `launch` constant; else the row's launch_s;
//   * host-to-GPU bandwidth and latency: the fitted pinned h2d copy line; else the row's config;
//   * co-running kernels' slowdown: the fitted interference coefficients; else the model's
//     defaults (models/kernel_interference.h).
// The node keeps the row's own rates (its decisions and kernel profiles are those the hardware
// run made); only the simulated GPU gets the measured ones. One simulation serves every metric
// row of a trial.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/calibration_data/calibration_file.h"
#include "models/calibration_data/measurement_csv.h"
#include "models/kernel_interference.h"

namespace parallax::hw {

struct SimulatedGpu {
  std::optional<double> flops_per_s, hbm_Bps, launch_s, host_link_Bps;
  double host_link_latency_s = 0;
  InterferenceCoefficients interference;
  bool fitted_interference = false;
};

// What `calibration` and the co-run rows of `rows` say about the simulated GPU.
SimulatedGpu simulated_gpu(const models::Calibration& calibration, const std::vector<models::Measurement>& rows);

class RealtimePredictor {
 public:
  explicit RealtimePredictor(SimulatedGpu gpu) : gpu_(std::move(gpu)) {}
  // The simulated value of a colocate, serverless, multiplex, interdecom or intrafusion row;
  // nullopt for other families and for rows without the trial's keys (ls_model, models, rates_per_s, strategy:
  // not written by the sweep). DataError (the row's file:line) for a trial config that cannot run.
  std::optional<double> predict(const models::Measurement& row);

 private:
  SimulatedGpu gpu_;
  std::map<std::string, std::map<std::string, double>> cache_;  // trial config -> metric -> value
};

}  // namespace parallax::hw

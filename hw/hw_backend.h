// File: hw/hw_backend.h
// What `parallax hw` asks of the CUDA backend. Two implementations: hw_backend_cuda.cpp (built
// with -Dcuda=enabled/auto and nvcc present) and hw_backend_none.cpp (a build without CUDA, where
// every call reports that the build has no CUDA backend). The command side (hw_command.cpp) stays
// CUDA-free: it plans, prints and writes files.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/calibration_data/measurement_csv.h"
#include "hw/sweep_plan.h"

namespace parallax::hw {

// Thrown when the hardware cannot be used: no CUDA backend in this build, or no GPU (the message
// is the one line to print; the command exits with kNoGpuExitCode).
class HardwareUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad command-line input to `parallax hw` (exit code 2).
class InvalidHwInput : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

bool backend_built();

// One line per GPU: index, name, SMs, memory, compute capability, green-context granularity,
// driver and CUDA versions. Throws HardwareUnavailable.
std::string describe_gpus();

// The facts the plan needs, read from `device`. Throws HardwareUnavailable.
DeviceFacts device_facts(int device);

// Runs every case of `plan` on `device`, in order, calling `progress` after each. A case that
// fails (a CUDA error, an illegal partition) is reported through `progress` and left out of the
// rows; out-of-memory ends nothing but that case. `git_commit` goes into the provenance.
struct CaseOutcome {
  const PlanCase* plan_case;
  bool ok;
  std::string error;  // when !ok
  double seconds;     // wall time spent on the case
};
struct CalibrationResult {
  models::MeasurementProvenance provenance;
  std::vector<models::Measurement> rows;  // each with `provenance`
  std::vector<CaseOutcome> failures;
};
CalibrationResult run_plan(const SweepPlan& plan, int device, const std::string& git_commit,
                           const std::function<void(const CaseOutcome&)>& progress);

}  // namespace parallax::hw

// File: hw/calibrator.h
// Executes the cases of a SweepPlan on one GPU (hw_backend_cuda.cpp drives it). Every time is
// the median of the case's repetitions after its warm-up runs, taken with CUDA events on the
// GPU's timeline, except where the host's view is the quantity (launch and sync overheads,
// pageable copies, which the driver stages through the CPU): there the steady clock.
// calibrate_micro.cpp holds gemm, copy, launch, corun and sm_scaling; calibrate_swap.cpp swap;
// calibrate_realtime.cpp what runs policy objects on a CudaPlatform: colocate, serverless and
// multiplex (trials in real time, one value per metric) and interdecom and intrafusion (the
// overlap task graphs, timed per repetition).
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hw/calibration_output.h"
#include "hw/cublaslt_gemm.h"
#include "hw/green_context.h"
#include "hw/sweep_plan.h"

namespace parallax::hw {

struct CaseResult {
  RepStats stats;
  int reps = 0;
  // Config values the hardware decided (e.g. the SMs a green context really got), replacing the plan's.
  std::vector<std::pair<std::string, std::string>> actual;
  // colocate, serverless, multiplex: the value of each of the case's metrics (stats unused).
  std::vector<std::pair<std::string, double>> metrics;
};

class Calibrator {
 public:
  explicit Calibrator(int device);
  ~Calibrator();
  Calibrator(const Calibrator&) = delete;
  Calibrator& operator=(const Calibrator&) = delete;

  CaseResult run(const PlanCase& c);

 private:
  // A device buffer by name, grown (never shrunk) to at least `bytes`.
  void* device_buffer(const std::string& name, size_t bytes);
  void* pinned_buffer(size_t bytes);
  void* pageable_buffer(size_t bytes);
  CublasLtGemm& gemm();
  GreenContexts& green();
  // The GEMM operands of one shape, filled with random values once.
  struct GemmOperands {
    void *a, *b, *c;
  };
  GemmOperands gemm_operands(GemmDtype dtype, int64_t m, int64_t n, int64_t k);

  // GPU time of `enqueue` (which must leave all its work joined into stream_), warm-up + reps.
  std::vector<double> time_events(const PlanCase& c, const std::function<void()>& enqueue);
  // Host time of `body` (which must return with its work finished), warm-up + reps.
  std::vector<double> time_host(const PlanCase& c, const std::function<void()>& body);
  // `side` starts after everything issued so far on `main`; `main` continues after `side`.
  void fork(cudaStream_t main, cudaStream_t side);
  void join(cudaStream_t main, cudaStream_t side);
  cudaEvent_t scratch_event();

  CaseResult gemm_case(const PlanCase& c);
  CaseResult copy_case(const PlanCase& c);
  CaseResult launch_case(const PlanCase& c);
  CaseResult corun_case(const PlanCase& c);
  CaseResult swap_case(const PlanCase& c);
  CaseResult sm_scaling_case(const PlanCase& c);
  CaseResult overlap_case(const PlanCase& c);  // interdecom, intrafusion
  CaseResult colocate_case(const PlanCase& c);
  CaseResult serverless_case(const PlanCase& c);
  CaseResult multiplex_case(const PlanCase& c);

  int device_;
  int sms_ = 0;
  cudaStream_t stream_ = nullptr, side_ = nullptr;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  std::vector<cudaEvent_t> scratch_events_;
  size_t next_scratch_ = 0;
  std::map<std::string, std::pair<void*, size_t>> device_buffers_;
  std::pair<void*, size_t> pinned_{nullptr, 0}, pageable_{nullptr, 0};
  std::map<std::string, size_t> random_bytes_;  // how much of a named buffer holds random values
  std::unique_ptr<CublasLtGemm> gemm_;
  std::unique_ptr<GreenContexts> green_;
};

}  // namespace parallax::hw

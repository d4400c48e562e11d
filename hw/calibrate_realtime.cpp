// File: hw/calibrate_realtime.cpp
// The Calibrator's families that run policy objects on a CudaPlatform of its own, driven by the
// platform's event loop in real time: colocate, serverless and multiplex trials
// (hw/colocate_trial.h, hw/serverless_trial.h, hw/multiplex_trial.h; one value per metric,
// run_plan makes them rows) and the overlap task graphs of interdecom and intrafusion
// (hw/overlap_trial.h; one time per repetition).
#include <fmt/format.h>

#include "hw/calibrator.h"
#include "hw/colocate_trial.h"
#include "hw/cuda_platform.h"
#include "hw/multiplex_trial.h"
#include "hw/overlap_trial.h"
#include "hw/serverless_trial.h"

namespace parallax::hw {

namespace {

// A plan case as the row the trial readers take (the same keys the CSV will hold).
models::Measurement as_row(const PlanCase& c) {
  models::Measurement m;
  m.family = *models::parse_measurement_family(c.family);
  m.case_id = c.id;
  m.config = c.config;
  m.file = "plan";
  return m;
}

struct Ignore final : CompletionListener {
  void on_complete(uint64_t) override {}
};

// The trial's first kernels would otherwise pay for loading the kernel module and creating
// streams: one kernel on the whole GPU and one on pinned SMs, before the clock matters.
void warm_up(CudaPlatform& platform) {
  Ignore ignore;
  KernelProfile k;
  k.flops = 1e9;
  platform.launch(0, kWholeGpu, k, ignore, 0);
  k.max_sms = 8;
  platform.launch(0, kWholeGpu, k, ignore, 0);
  platform.run();
}

void require_first_gpu(int device) {
  // The trials put their node on CudaPlatform's GPU 0.
  if (device != 0) throw PlatformError(fmt::format("the real-time trials and overlap graphs run on GPU 0, not {}", device));
}

}  // namespace

CaseResult Calibrator::colocate_case(const PlanCase& c) {
  require_first_gpu(device_);
  const ColocateTrial t = colocate_trial_from(as_row(c));
  CudaPlatform platform;
  warm_up(platform);
  // No interference term: co-running kernels on the GPU slow each other by themselves.
  const ColocateOutcome o = run_colocate_trial(platform, t, false, {}, [&] { platform.run(); });
  CaseResult r;
  r.reps = 1;
  for (const TrialMetric& m : c.metrics) r.metrics.push_back({m.name, colocate_metric(o, m.name)});
  return r;
}

CaseResult Calibrator::serverless_case(const PlanCase& c) {
  require_first_gpu(device_);
  const ServerlessTrial t = serverless_trial_from(as_row(c));
  CudaPlatformOptions options;
  options.pinned_host = true;
  // Layers are kernels described by time: the intensity kernel at its measured FP32 rate.
  options.kernel_flops_per_s = t.flops_per_s;
  CudaPlatform platform(options);
  warm_up(platform);
  const ServerlessOutcome o = run_serverless_trial(platform, t, [&] { platform.run(); });
  CaseResult r;
  r.reps = 1;
  for (const TrialMetric& m : c.metrics) r.metrics.push_back({m.name, serverless_metric(o, m.name)});
  return r;
}

CaseResult Calibrator::multiplex_case(const PlanCase& c) {
  require_first_gpu(device_);
  const MultiplexTrial t = multiplex_trial_from(as_row(c));
  CudaPlatform platform;
  warm_up(platform);
  const MultiplexOutcome o = run_multiplex_trial(platform, t, [&] { platform.run(); });
  CaseResult r;
  r.reps = 1;
  for (const TrialMetric& m : c.metrics) r.metrics.push_back({m.name, multiplex_metric(o, m.name)});
  return r;
}

// The graph's end-to-end time on the platform's clock, per repetition. StepGraphRun cuts its comm
// partition when it starts and never gives it back, so every run gets a fresh CudaPlatform.
CaseResult Calibrator::overlap_case(const PlanCase& c) {
  require_first_gpu(device_);
  const OverlapTrial t = overlap_trial_from(as_row(c));
  std::vector<double> samples;
  int comm_sms = 0;
  for (int i = 0; i < c.warmup + c.reps; ++i) {
    CudaPlatform platform;
    warm_up(platform);
    const double s = run_overlap_trial(platform, t, [&] { platform.run(); });
    if (i >= c.warmup) samples.push_back(s);
    if (t.strategy != "sequential") comm_sms = platform.partition_sms(0);  // the graph's one partition
  }
  CaseResult r;
  r.stats = rep_stats(samples);
  r.reps = c.reps;
  // The SMs the driver gave the comm partition (the request rounded to the green-context granularity).
  if (comm_sms > 0) {
    r.actual.push_back({t.strategy == "interdecom" ? "copy_sms" : "stolen_sms", std::to_string(comm_sms)});
    r.actual.push_back({"comm_sms", std::to_string(comm_sms)});
  }
  return r;
}

}  // namespace parallax::hw

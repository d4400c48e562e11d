// File: hw/hw_backend_cuda.cpp
// The backend of a CUDA build: `parallax hw info` and `calibrate` on real GPUs.
#include <chrono>

#include <fmt/format.h>

#include "hw/calibrator.h"
#include "hw/cuda_check.h"
#include "hw/device_probe.h"
#include "hw/hw_backend.h"

namespace parallax::hw {

bool backend_built() { return true; }

std::string describe_gpus() {
  const int n = cuda_device_count();
  int runtime = 0, driver = 0;
  PX_CUDA(-1, cudaRuntimeGetVersion(&runtime));
  PX_CUDA(-1, cudaDriverGetVersion(&driver));
  const models::MeasurementProvenance p = probe_provenance(0, "");
  std::string out = fmt::format("{} CUDA GPU{}; driver {} (CUDA {}.{}), runtime CUDA {}.{}\n", n, n == 1 ? "" : "s", p.driver,
                                driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10);
  for (int i = 0; i < n; ++i) {
    const ProbedDevice d = probe_device(i);
    const std::string green = d.green_min_sms > 0
                                  ? fmt::format("green contexts: groups of >= {} SMs in multiples of {}", d.green_min_sms,
                                                d.green_multiple_sms)
                                  : "green contexts unavailable: " + d.green_error;
    out += fmt::format("GPU {}: {}, {} SMs, {:.1f} GiB, compute capability {}.{}, HBM ~{:.2f} TB/s (from clock x bus), {}, PCI {}\n",
                       i, d.name, d.sms, static_cast<double>(d.memory_bytes) / (1 << 30), d.cc_major, d.cc_minor,
                       d.hbm_Bps / 1e12, green, d.pci_bus_id);
  }
  return out;
}

DeviceFacts device_facts(int device) {
  const ProbedDevice d = probe_device(device);
  DeviceFacts f;  // H200 figures for what the device cannot tell (peak FLOP/s), scaled by SMs
  const double sm_scale = static_cast<double>(d.sms) / f.sms;
  f.name = d.name;
  f.sms = d.sms;
  f.peak_flops *= sm_scale;
  f.fp32_flops *= sm_scale;
  if (d.hbm_Bps > 0) f.hbm_Bps = d.hbm_Bps;
  f.memory_bytes = d.memory_bytes;
  if (d.green_min_sms > 0) {
    f.green_min_sms = d.green_min_sms;
    f.green_multiple_sms = d.green_multiple_sms;
  }
  return f;
}

CalibrationResult run_plan(const SweepPlan& plan, int device, const std::string& git_commit,
                           const std::function<void(const CaseOutcome&)>& progress) {
  CalibrationResult result;
  result.provenance = probe_provenance(device, git_commit);
  Calibrator calibrator(device);
  for (const PlanCase& c : plan.cases) {
    const auto t0 = std::chrono::steady_clock::now();
    CaseOutcome outcome{&c, true, {}, 0};
    try {
      const CaseResult r = calibrator.run(c);
      for (const PlanRow& row : plan_rows(c)) {
        models::Measurement m;
        m.family = *models::parse_measurement_family(c.family);
        m.case_id = row.id;
        m.config = row.config;
        for (const auto& [key, value] : r.actual)
          for (auto& [k, v] : m.config)
            if (k == key) v = value;
        m.value = r.stats.median;
        if (!row.metric.empty()) {  // a trial: its metric's value, one run
          m.value = 0;
          for (const auto& [name, value] : r.metrics)
            if (name == row.metric) m.value = value;
          m.unit = row.unit;
        }
        m.reps = r.reps;
        m.stdev = r.stats.stdev;
        m.provenance = result.provenance;
        result.rows.push_back(std::move(m));
      }
    } catch (const std::exception& e) {  // PlatformError (CUDA, OOM, partitions), invalid config
      outcome.ok = false;
      outcome.error = e.what();
    }
    outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!outcome.ok) result.failures.push_back(outcome);
    progress(outcome);
  }
  return result;
}

}  // namespace parallax::hw

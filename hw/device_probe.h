// File: hw/device_probe.h
// What the backend reads about the machine, without changing anything: the GPUs (name, SMs,
// memory, compute capability, green-context granularity), and the provenance of a measurement
// (driver and clocks through NVML when libnvidia-ml is there, else the CUDA runtime's figures).
#pragma once

#include <cstdint>
#include <string>

#include "models/calibration_data/measurement_csv.h"

namespace parallax::hw {

// The number of CUDA devices. Throws HardwareUnavailable with "no CUDA GPU found: <cuda error
// text>" when the runtime finds none (no driver: cudaErrorInsufficientDriver / NoDevice).
int cuda_device_count();

struct ProbedDevice {
  int index = 0;
  std::string name;
  int sms = 0;
  int64_t memory_bytes = 0;
  int cc_major = 0, cc_minor = 0;
  int green_min_sms = 0;        // 0 when green contexts are unavailable
  int green_multiple_sms = 0;
  std::string green_error;      // why, when unavailable
  double hbm_Bps = 0;           // from the memory clock and bus width (0 if unknown)
  std::string pci_bus_id;
};
ProbedDevice probe_device(int device);

// Provenance of measurements taken now on `device` (date = now, UTC).
models::MeasurementProvenance probe_provenance(int device, const std::string& git_commit);

}  // namespace parallax::hw

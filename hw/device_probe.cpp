// File: hw/device_probe.cpp
#include "hw/device_probe.h"

#include <dlfcn.h>

#include <ctime>
#include <memory>

#include <fmt/format.h>

#include "hw/cuda_check.h"
#include "hw/cuda_error_message.h"
#include "hw/green_context.h"
#include "hw/hw_backend.h"
#include "hw/shared_library.h"

namespace parallax::hw {

namespace {

// The few NVML functions used, declared here (the toolkit ships no nvml.h); stable public ABI.
struct NvmlDevice;
struct Nvml {
  SharedLibrary lib{{"libnvidia-ml.so.1"}};
  int (*init)() = nullptr;
  int (*shutdown)() = nullptr;
  int (*driver_version)(char*, unsigned) = nullptr;
  int (*by_pci)(const char*, NvmlDevice**) = nullptr;
  int (*clock)(NvmlDevice*, int, unsigned*) = nullptr;
  static constexpr int kClockSm = 1, kClockMem = 2;
  Nvml() {
    lib.bind(init, "nvmlInit_v2");
    lib.bind(shutdown, "nvmlShutdown");
    lib.bind(driver_version, "nvmlSystemGetDriverVersion");
    lib.bind(by_pci, "nvmlDeviceGetHandleByPciBusId_v2");
    lib.bind(clock, "nvmlDeviceGetClockInfo");
  }
};

std::string version_string(int v) { return fmt::format("{}.{}", v / 1000, (v % 1000) / 10); }

std::string utc_now_iso() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

namespace {
// Whether the NVIDIA driver library opens: without it the runtime's error blames a driver version.
bool driver_library_loads() {
  void* handle = ::dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (handle == nullptr) return false;
  ::dlclose(handle);
  return true;
}
}  // namespace

int cuda_device_count() {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    cudaGetLastError();
    throw HardwareUnavailable(no_gpu_message(cudaGetErrorName(e), cudaGetErrorString(e), driver_library_loads()));
  }
  if (n == 0) throw HardwareUnavailable(no_gpu_message("", "", true));
  return n;
}

ProbedDevice probe_device(int device) {
  const int n = cuda_device_count();
  if (device < 0 || device >= n)
    throw InvalidHwInput(fmt::format("--device {}: this machine has GPUs 0..{}", device, n - 1));
  ProbedDevice d;
  d.index = device;
  cudaDeviceProp p{};
  PX_CUDA(device, cudaGetDeviceProperties(&p, device));
  d.name = p.name;
  d.sms = p.multiProcessorCount;
  d.memory_bytes = static_cast<int64_t>(p.totalGlobalMem);
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  int mem_khz = 0, bus_bits = 0;
  if (cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, device) == cudaSuccess &&
      cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device) == cudaSuccess)
    d.hbm_Bps = 2.0 * mem_khz * 1e3 * bus_bits / 8;  // double data rate
  cudaGetLastError();
  char bus[32] = {};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, device) == cudaSuccess) d.pci_bus_id = bus;
  cudaGetLastError();
  try {
    GreenContexts g(device);
    d.green_min_sms = g.rules().green_min_sms;
    d.green_multiple_sms = g.rules().green_multiple_sms;
  } catch (const PlatformError& e) {
    d.green_error = e.what();
  }
  return d;
}

models::MeasurementProvenance probe_provenance(int device, const std::string& git_commit) {
  const ProbedDevice d = probe_device(device);
  models::MeasurementProvenance p;
  p.gpu_name = d.name;
  p.sm_count = d.sms;
  int runtime = 0, driver = 0;
  PX_CUDA(device, cudaRuntimeGetVersion(&runtime));
  PX_CUDA(device, cudaDriverGetVersion(&driver));
  p.cuda = version_string(runtime);
  p.driver = "cuda-" + version_string(driver);  // replaced by the NVML driver version when available
  p.date = utc_now_iso();
  p.git_commit = git_commit;
  int khz = 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device) == cudaSuccess && khz > 0) p.sm_clock_mhz = khz / 1000.0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, device) == cudaSuccess && khz > 0) p.mem_clock_mhz = khz / 1000.0;
  cudaGetLastError();
  try {
    // NVML reads only; it is optional (the clocks above are the rated ones, these the current).
    const Nvml nvml;
    if (nvml.init() == 0) {
      char v[96] = {};
      if (nvml.driver_version(v, sizeof v) == 0) p.driver = v;
      NvmlDevice* h = nullptr;
      unsigned mhz = 0;
      if (!d.pci_bus_id.empty() && nvml.by_pci(d.pci_bus_id.c_str(), &h) == 0) {
        if (nvml.clock(h, Nvml::kClockSm, &mhz) == 0) p.sm_clock_mhz = mhz;
        if (nvml.clock(h, Nvml::kClockMem, &mhz) == 0) p.mem_clock_mhz = mhz;
      }
      nvml.shutdown();
    }
  } catch (const PlatformError&) {
  }
  return p;
}

}  // namespace parallax::hw

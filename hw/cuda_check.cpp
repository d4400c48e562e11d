// File: hw/cuda_check.cpp
#include "hw/cuda_check.h"

#include <mutex>
#include <unordered_map>

#include <fmt/format.h>

#include "hw/cuda_error_message.h"
#include "hw/driver_api.h"

namespace parallax::hw {

std::string device_name(int device) {
  static std::mutex mu;
  static std::unordered_map<int, std::string> names;
  if (device < 0) return {};
  std::lock_guard lock(mu);
  if (auto it = names.find(device); it != names.end()) return it->second;
  cudaDeviceProp prop{};
  // Not checked on purpose: this runs while reporting another error.
  if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    cudaGetLastError();
    return {};
  }
  return names[device] = prop.name;
}

void throw_cuda_error(cudaError_t e, const char* call, int device) {
  cudaGetLastError();  // clear a non-sticky error so later calls do not report it again
  const std::string msg = cuda_error_message(call, device, device_name(device), cudaGetErrorName(e), cudaGetErrorString(e));
  if (e == cudaErrorMemoryAllocation) throw OutOfMemoryError(msg);
  throw CudaError(msg, static_cast<int>(e));
}

void throw_cu_error(CUresult r, const char* call, int device) {
  const char* name = "CUDA_ERROR";
  const char* text = "unknown driver error";
  if (const DriverApi* api = driver_api_if_loaded()) {
    if (api->cuGetErrorName) api->cuGetErrorName(r, &name);
    if (api->cuGetErrorString) api->cuGetErrorString(r, &text);
  }
  const std::string msg = cuda_error_message(call, device, device_name(device), fmt::format("{} ({})", name, static_cast<int>(r)), text);
  if (r == CUDA_ERROR_OUT_OF_MEMORY) throw OutOfMemoryError(msg);
  throw CudaError(msg, static_cast<int>(r));
}

void throw_library_error(const char* library, int code, const char* text, const char* call, int device) {
  throw CudaError(cuda_error_message(call, device, device_name(device), fmt::format("{} error {}", library, code), text), code);
}

}  // namespace parallax::hw

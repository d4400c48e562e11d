// File: hw/cuda_check.h
// Every CUDA runtime, driver-API, NCCL and cuBLASLt call of the backend goes through one of these
// macros. A failure throws CudaError (a PlatformError) whose message names the call as written,
// the device and the library's error name and text (hw/cuda_error_message.h); an allocation
// failure throws OutOfMemoryError instead, so policies see the same error as on SimPlatform.
//
//   PX_CUDA(device, cudaMalloc(&p, bytes));   // "cudaMalloc(&p, bytes) failed on GPU 0 (NVIDIA H200): ..."
//   PX_CU(device, api.cuGreenCtxCreate(&g, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM));
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <string>

#include "sim/platform/platform.h"

namespace parallax::hw {

class CudaError : public PlatformError {
 public:
  CudaError(const std::string& message, int code) : PlatformError(message), code_(code) {}
  int code() const { return code_; }  // the library's numeric error

 private:
  int code_;
};

// The device's name for messages ("" when it cannot be read). Cached per device.
std::string device_name(int device);

[[noreturn]] void throw_cuda_error(cudaError_t e, const char* call, int device);
[[noreturn]] void throw_cu_error(CUresult r, const char* call, int device);
[[noreturn]] void throw_library_error(const char* library, int code, const char* text, const char* call, int device);

inline void check_cuda(cudaError_t e, const char* call, int device) {
  if (e != cudaSuccess) throw_cuda_error(e, call, device);
}
inline void check_cu(CUresult r, const char* call, int device) {
  if (r != CUDA_SUCCESS) throw_cu_error(r, call, device);
}

}  // namespace parallax::hw

#define PX_CUDA(device, call) ::parallax::hw::check_cuda((call), #call, (device))
#define PX_CU(device, call) ::parallax::hw::check_cu((call), #call, (device))

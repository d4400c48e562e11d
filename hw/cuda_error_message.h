// File: hw/cuda_error_message.h
// The one format of every CUDA, driver-API, NCCL and cuBLASLt failure the hardware backend
// reports: the call as written, the device (index and name), the library's error name and text.
// CUDA-free so that the format is tested in CI; hw/cuda_check.h fills it from the real errors.
//
//   cuda_error_message("cudaMalloc(&p, bytes)", 0, "NVIDIA H200", "cudaErrorMemoryAllocation", "out of memory")
//   // "cudaMalloc(&p, bytes) failed on GPU 0 (NVIDIA H200): cudaErrorMemoryAllocation: out of memory"
#pragma once

#include <string>
#include <string_view>

namespace parallax::hw {

// `device` < 0: the call is not about one GPU ("failed: ...").
std::string cuda_error_message(std::string_view call, int device, std::string_view device_name,
                               std::string_view error_name, std::string_view error_text);

// The one line `parallax hw` prints when no GPU can be used (exit code kNoGpuExitCode), in plain
// words: `error_name` and `error_text` are what cudaGetDeviceCount returned ("" when it succeeded
// and counted 0 devices); `driver_loads` says whether the driver library (libcuda.so.1) opens.
// Without a driver the CUDA runtime reports cudaErrorInsufficientDriver ("driver version is
// insufficient"), which would blame a driver that is not there: that case says no driver instead.
//   no_gpu_message("cudaErrorInsufficientDriver", "CUDA driver version is insufficient ...", false)
//   // "no CUDA GPU found: no NVIDIA driver is installed (libcuda.so.1 cannot be loaded), so no GPU can be used"
std::string no_gpu_message(std::string_view error_name, std::string_view error_text, bool driver_loads);

// Exit code of `parallax hw ...` when there is no usable GPU or no CUDA backend in the build.
inline constexpr int kNoGpuExitCode = 3;

}  // namespace parallax::hw

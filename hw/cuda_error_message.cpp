// File: hw/cuda_error_message.cpp
#include "hw/cuda_error_message.h"

#include <fmt/format.h>

namespace parallax::hw {

std::string cuda_error_message(std::string_view call, int device, std::string_view device_name,
                               std::string_view error_name, std::string_view error_text) {
  const std::string where =
      device < 0 ? std::string() : device_name.empty() ? fmt::format(" on GPU {}", device)
                                                       : fmt::format(" on GPU {} ({})", device, device_name);
  return fmt::format("{} failed{}: {}: {}", call, where, error_name, error_text);
}

std::string no_gpu_message(std::string_view error_name, std::string_view error_text, bool driver_loads) {
  if (!driver_loads)
    return "no CUDA GPU found: no NVIDIA driver is installed (libcuda.so.1 cannot be loaded), so no GPU can be used";
  if (error_name.empty()) return "no CUDA GPU found: the NVIDIA driver is installed but reports no GPU";
  if (error_name == "cudaErrorNoDevice")
    return fmt::format("no CUDA GPU found: the NVIDIA driver is installed but sees no GPU ({}: {})", error_name, error_text);
  if (error_name == "cudaErrorInsufficientDriver")
    return fmt::format("no CUDA GPU found: the NVIDIA driver is older than this build's CUDA runtime ({}: {})", error_name,
                       error_text);
  return fmt::format("no CUDA GPU found: {}: {}", error_name, error_text);
}

}  // namespace parallax::hw

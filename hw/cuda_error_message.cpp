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

std::string no_gpu_message(std::string_view cuda_error_text) {
  return fmt::format("no CUDA GPU found: {}", cuda_error_text);
}

}  // namespace parallax::hw

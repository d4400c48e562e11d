// File: hw/kernels.cu
#include "hw/kernels.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "hw/cuda_check.h"

namespace parallax::hw {

namespace {

// Dynamic shared memory of the one-block-per-SM intensity kernel, set by prepare_one_block_per_sm.
int g_one_block_smem[64] = {};

__global__ void intensity_kernel(float4* buf, long long vectors, long long passes, long long fma) {
  extern __shared__ float4 reserved_smem[];  // only reserves the SM (one_block_per_sm)
  (void)reserved_smem;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long first = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const float a = 0.9999f, b = 1e-4f;
  for (long long p = 0; p < passes; ++p)
    for (long long i = first; i < vectors; i += stride) {
      float4 v = buf[i];
#pragma unroll 8
      for (long long j = 0; j < fma; ++j) {
        v.x = fmaf(v.x, a, b);
        v.y = fmaf(v.y, a, b);
        v.z = fmaf(v.z, a, b);
        v.w = fmaf(v.w, a, b);
      }
      buf[i] = v;
    }
}

__global__ void copy_kernel(const int4* __restrict__ src, int4* __restrict__ dst, size_t vectors,
                            const unsigned char* __restrict__ src_tail, unsigned char* __restrict__ dst_tail,
                            size_t tail) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < vectors; i += 4 * stride) {
    const int4 a = src[i], b = src[i + stride], c = src[i + 2 * stride], d = src[i + 3 * stride];
    dst[i] = a;
    dst[i + stride] = b;
    dst[i + 2 * stride] = c;
    dst[i + 3 * stride] = d;
  }
  for (; i < vectors; i += stride) dst[i] = src[i];
  if (blockIdx.x == 0)
    for (size_t t = threadIdx.x; t < tail; t += blockDim.x) dst_tail[t] = src_tail[t];
}

__global__ void empty_kernel() {}

__global__ void fill_kernel(unsigned short* p, size_t n, unsigned short exponent_bits, unsigned short mantissa_mask,
                            uint32_t seed) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    uint32_t x = static_cast<uint32_t>(i) * 2654435761u ^ seed;  // a hash, not a generator: any spread will do
    x ^= x >> 15;
    x *= 2246822519u;
    x ^= x >> 13;
    p[i] = static_cast<unsigned short>(((x >> 16) & 0x8000u) | exponent_bits | (x & mantissa_mask));
  }
}

int current_device() {
  int d = -1;
  PX_CUDA(-1, cudaGetDevice(&d));
  return d;
}

}  // namespace

int one_block_smem(int device) {
  const int smem = device >= 0 && device < 64 ? g_one_block_smem[device] : 0;
  if (smem == 0)
    throw CudaError("a one-block-per-SM launch before prepare_one_block_per_sm on GPU " + std::to_string(device), 0);
  return smem;
}

void launch_intensity(const IntensityShape& s, void* buffer, bool one_block_per_sm, cudaStream_t stream) {
  const int smem = one_block_per_sm ? one_block_smem(current_device()) : 0;
  intensity_kernel<<<s.blocks, s.threads, static_cast<size_t>(smem), stream>>>(static_cast<float4*>(buffer), s.vectors, s.passes,
                                                      s.fma_per_element);
  check_launch("intensity_kernel<<<>>>", current_device());
}

void launch_copy(const void* src, void* dst, size_t bytes, int blocks, int threads, cudaStream_t stream) {
  const size_t vectors = bytes / sizeof(int4);
  const size_t tail = bytes - vectors * sizeof(int4);
  const int device = current_device();
  const auto* s = static_cast<const unsigned char*>(src);
  auto* d = static_cast<unsigned char*>(dst);
  copy_kernel<<<blocks, threads, 0, stream>>>(
      reinterpret_cast<const int4*>(s), reinterpret_cast<int4*>(d), vectors, s + vectors * sizeof(int4),
      d + vectors * sizeof(int4), tail);
  check_launch("copy_kernel<<<>>>", device);
}

void prepare_one_block_per_sm(int device) {
  if (device < 0 || device >= 64) throw CudaError("prepare_one_block_per_sm: device index out of range", 0);
  if (g_one_block_smem[device] != 0) return;
  PX_CUDA(device, cudaSetDevice(device));
  int per_sm = 0, per_block_optin = 0;
  PX_CUDA(device, cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  PX_CUDA(device, cudaDeviceGetAttribute(&per_block_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  // More than half of the SM's shared memory: a second block can never fit beside the first.
  const int smem = std::min(per_block_optin, per_sm / 2 + 1024);
  PX_CUDA(device, cudaFuncSetAttribute(intensity_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  int blocks_per_sm = 0;
  PX_CUDA(device, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, intensity_kernel, 1024, smem));
  if (blocks_per_sm != 1)
    throw CudaError("a kernel with " + std::to_string(smem) + " B shared memory fits " + std::to_string(blocks_per_sm) +
                        " blocks per SM on GPU " + std::to_string(device) + " (expected 1)",
                    0);
  g_one_block_smem[device] = smem;
}

void fill_random_halves(void* buffer, size_t bytes, bool bf16, uint32_t seed, cudaStream_t stream) {
  // Exponent of 0.5 and the mantissa bits: bf16 0x3F00 / 7 bits, fp16 0x3800 / 10 bits.
  fill_kernel<<<1024, 256, 0, stream>>>(static_cast<unsigned short*>(buffer), bytes / 2,
                                        static_cast<unsigned short>(bf16 ? 0x3F00 : 0x3800),
                                        static_cast<unsigned short>(bf16 ? 0x7F : 0x3FF), seed);
  check_launch("fill_kernel<<<>>>", current_device());
}

void launch_empty(cudaStream_t stream) {
  empty_kernel<<<1, 1, 0, stream>>>();
  check_launch("empty_kernel<<<>>>", current_device());
}

void check_launch(const char* what, int device) { check_cuda(cudaGetLastError(), what, device); }

}  // namespace parallax::hw

// File: hw/kernels.h
// The backend's own kernels (hw/kernels.cu), callable from plain C++:
//  * intensity: streams a buffer with a tunable number of FMAs per element (hw/intensity_shape.h):
//    compute-bound, memory-bound or anything between, on any grid; the interference probe.
//  * copy: a grid-stride device copy with 16-byte loads, four in flight per thread (the d2d copy
//    family). A link's copy emulated on one GPU is the intensity kernel one block per SM on the
//    comm SMs (CudaPlatform::launch with max_sms, or on a partition).
//  * empty: nothing, for launch and synchronisation overheads.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "hw/intensity_shape.h"

namespace parallax::hw {

// The grid the calibration and the platform launch their intensity and copy kernels with: 8 blocks
// of 256 threads per SM fills an SM, and the intensity kernel streams a 1 GiB buffer (larger than
// any L2, so its bytes come from HBM).
inline constexpr int kBlocksPerSm = 8, kThreadsPerBlock = 256;
inline constexpr int64_t kIntensityBufferBytes = int64_t{1} << 30;

// With `one_block_per_sm`, shape.blocks blocks (of up to 1024 threads) run on exactly that many SMs.
void launch_intensity(const IntensityShape& shape, void* buffer, bool one_block_per_sm, cudaStream_t stream);

// `bytes` need not be a multiple of 16 (the tail is copied bytewise); src and dst 16-byte aligned.
void launch_copy(const void* src, void* dst, size_t bytes, int blocks, int threads, cudaStream_t stream);

// Once per device before a one_block_per_sm launch (later calls return at once): raises the
// intensity kernel's shared-memory limit and checks that only one block fits on an SM (CudaError
// otherwise).
void prepare_one_block_per_sm(int device);

// Fills `bytes` with pseudo-random 16-bit floats in ±[0.5, 1) (bf16 or fp16 bit patterns): GEMM
// inputs that are not all zero, so power and clocks are those of real work.
void fill_random_halves(void* buffer, size_t bytes, bool bf16, uint32_t seed, cudaStream_t stream);

void launch_empty(cudaStream_t stream);

// Launch errors of the kernels above are reported by the next checked call; this checks now.
void check_launch(const char* what, int device);

}  // namespace parallax::hw

#!/usr/bin/env bash
# File: tools/build-device-binary.sh
# Builds the `parallax` binary that tools/device-check.sh runs on the GPU machine, in
# build-device/ (docs/hardware.md). That machine has CUDA 13 but none of Debian's yaml-cpp, fmt or
# CLI11 shared libraries; every build links yaml-cpp, fmt (tools/fmt_library.cpp) and libstdc++
# into the binary statically (CLI11, nlohmann_json and Eigen are header-only anyway; meson.build),
# and this one enables CUDA, leaves MPI out, and links cudart statically (as every CUDA build
# does). cuBLASLt, NCCL and NVML are dlopen'ed at run time. What remains dynamic is glibc; the script prints the newest glibc symbol version the
# binary needs, which the GPU machine's glibc must provide.
#
# Usage: tools/build-device-binary.sh        (then: the `run` tool with carry: ["build-device"])
set -eu -o pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
if [ ! -d build-device ]; then
  meson setup build-device -Dcuda=enabled -Dmpi=disabled -Dtests=false -Dbenchmarks=false
fi
ninja -C build-device tools/parallax
bin=build-device/tools/parallax
echo "built $bin ($(du -h "$bin" | cut -f1))"
echo "shared libraries it needs:"
ldd "$bin" | sed 's/^/  /'
echo "newest glibc symbol version: $(objdump -T "$bin" | grep -o 'GLIBC_[0-9.]*' | sort -V | tail -1)"
if ldd "$bin" | grep -Eq 'libyaml|libfmt|libstdc\+\+|libmpi|libcublas|libnccl|libcuda\.so'; then
  echo "error: the binary still needs a library the GPU machine may lack" >&2
  exit 1
fi

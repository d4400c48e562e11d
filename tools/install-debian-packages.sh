#!/usr/bin/env bash
# Installs the Debian 12 packages parallax builds with (see README). Uses sudo when not root.
set -eu
pkgs=(g++ meson ninja-build pkg-config python3 libyaml-cpp-dev libeigen3-dev libfmt-dev libboost-dev
      libcli11-dev nlohmann-json3-dev libgtest-dev libgmock-dev libbenchmark-dev
      libprotobuf-dev protobuf-compiler  # Chakra execution traces (sim/workload/chakra_et_def.proto)
      zlib1g-dev  # libz.a: protobuf, yaml-cpp and zlib are linked statically (meson.build says why)
      clang-14 libclang-rt-14-dev  # libFuzzer targets (tests/fuzz, .ci/run)
      libopenmpi-dev openmpi-bin  # parallax sweep --mpi (docs/sweeps.md; -Dmpi=auto finds it)
      chromium chromium-driver)  # report_browser test: report.html in headless Chromium (docs/reports.md)
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${pkgs[@]}"

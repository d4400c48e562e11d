// File: sim/policies/overlap/ring_synthesis_bench.cpp
// How long ring synthesis takes per group (ring_synthesis.h): the single and the double ring of
// GPUs 0..P-1 on the A6000 box and the DGX H100, the platform built once; and the pair schedule
// (pair_schedule.h) alone.
//   build/sim/policies/overlap/ring_synthesis_bench
#include <benchmark/benchmark.h>

#include <numeric>

#include "sim/engine/engine.h"
#include "sim/platform/sim_platform.h"
#include "sim/policies/overlap/pair_schedule.h"
#include "sim/policies/overlap/ring_synthesis.h"
#include "sim/scenario/scenario_loader.h"

namespace {

void synthesise_rings(benchmark::State& state, const char* preset) {
  parallax::Engine engine;
  parallax::SimPlatform platform(engine, parallax::load_hardware_preset(preset));
  std::vector<int> gpus(static_cast<size_t>(state.range(0)));
  std::iota(gpus.begin(), gpus.end(), 0);
  for (auto _ : state) {
    benchmark::DoNotOptimize(parallax::synthesise_single_ring(platform, gpus));
    benchmark::DoNotOptimize(parallax::synthesise_double_ring(platform, gpus));
  }
}

void synthesise_pairs(benchmark::State& state) {
  parallax::Engine engine;
  parallax::SimPlatform platform(engine, parallax::load_hardware_preset("a6000x8-nvlink-pairs"));
  std::vector<int> gpus(static_cast<size_t>(state.range(0)));
  std::iota(gpus.begin(), gpus.end(), 0);
  for (auto _ : state) benchmark::DoNotOptimize(parallax::synthesise_pair_schedule(platform, gpus, 64e6, 1e-6, 8.4e-6));
}

BENCHMARK(synthesise_pairs)->Arg(4)->Arg(8)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(synthesise_rings, a6000, "a6000x8-nvlink-pairs")->Arg(2)->Arg(4)->Arg(8)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(synthesise_rings, dgx_h100, "dgx-h100")->Arg(8)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();

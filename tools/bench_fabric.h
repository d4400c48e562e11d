// File: tools/bench_fabric.h
// `parallax bench fabric`: collectives over every GPU of a cluster preset on the flow-level
// platform (sim/platform/fabric_bench.h), by default the dgx-h100 box on 8 … 1,024 nodes (64 …
// 8,192 GPUs): a hierarchical all-reduce and a pairwise all-to-all of 1 GiB, with wall time, CPU,
// copies and peak RSS per point, then route time at the largest size. docs/performance.md "Cluster
// fabric". Registered on the `bench` command by one call.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace parallax {

class FabricBench {
 public:
  explicit FabricBench(CLI::App& bench);
  bool parsed() const { return cmd_->parsed(); }
  int run() const;

 private:
  CLI::App* cmd_ = nullptr;
  std::string hardware_ = "dgx-h100";
  std::vector<int> nodes_{8, 16, 32, 64, 128, 256, 512, 1024};
  std::vector<std::string> ops_{"all_reduce", "all_to_all"};
  std::string bytes_ = "1GiB";
  uint64_t routes_ = 1'000'000;
};

}  // namespace parallax

// File: tools/bench_serverless.h
// `parallax bench serverless`: the serverless simulator at cluster scale (docs/serverless.md
// "Scale"). By default 1,000 functions on 16 v100x4-gn6e nodes (64 GPUs) behind the cluster
// router, 24 simulated hours of Azure-shaped traffic under Torpor's policy; prints wall time,
// simulated requests per second of wall time, engine events and peak memory per request.
// Registered on the `bench` command by one call.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

namespace parallax {

class ServerlessBench {
 public:
  explicit ServerlessBench(CLI::App& bench);
  bool parsed() const { return cmd_->parsed(); }
  int run() const;

 private:
  CLI::App* cmd_ = nullptr;
  int functions_ = 1000;
  int nodes_ = 16;
  double hours_ = 24;
  std::string policy_ = "torpor";
  std::string hardware_ = "v100x4-gn6e";
  std::string rates_ = "traces/torpor/invoc_pattern.txt";
  std::string shape_ = "traces/azure2019_single_function/invocations.csv";
  uint64_t seed_ = 1;
  bool platform_path_ = false;
};

}  // namespace parallax

// File: tools/bench_fabric.cpp
#include "tools/bench_fabric.h"

#include <cstdio>

#include <fmt/format.h>

#include "sim/platform/fabric_bench.h"
#include "sim/report/console_table.h"
#include "sim/scenario/byte_count.h"
#include "sim/scenario/scenario_loader.h"
#include "sim/io/input_error.h"

namespace parallax {

namespace {
[[noreturn]] void bad_fabric_argument(const std::string& option, const std::string& message) {
  throw InputError(SourceLocation{"<command line>", 0, 0}, option, fmt::format("{}: {}", option, message));
}
}  // namespace

FabricBench::FabricBench(CLI::App& bench) {
  cmd_ = bench.add_subcommand("fabric", "Cluster collectives on the flow-level platform: 64 .. 8,192 GPUs, time and memory");
  cmd_->add_option("--hardware", hardware_, "hardware preset with a fabric")->capture_default_str();
  cmd_->add_option("--nodes", nodes_, "node counts, small to large (repeatable)")
      ->check(CLI::Range(2, 16384))
      ->capture_default_str();
  cmd_->add_option("--op", ops_, "all_reduce (hierarchical) | all_to_all (p2p) | any op with its default algorithm (repeatable)")
      ->capture_default_str();
  cmd_->add_option("--bytes", bytes_, "nccl-tests' S, e.g. 1GiB")->capture_default_str();
  cmd_->add_option("--routes", routes_, "random GPU-pair routes timed at the largest node count")
      ->check(CLI::Range(uint64_t{0}, uint64_t{1'000'000'000}))
      ->capture_default_str();
}

int FabricBench::run() const {
  const HardwareSpec box = load_hardware_preset(hardware_);
  if (box.fabric.nics.empty()) bad_fabric_argument("--hardware", fmt::format("'{}' has no fabric (presets with one: dgx-a100, dgx-h100)", hardware_));
  const ByteCountParse parsed = parse_byte_count(bytes_);
  if (!parsed.bytes) bad_fabric_argument("--bytes", parsed.error);
  std::vector<std::vector<std::string>> rows;
  for (const std::string& name : ops_) {
    const auto op = collective_op_named(name);
    if (!op) bad_fabric_argument("--op", fmt::format("unknown op '{}'", name));
    // NCCL's multi-node all-reduce family runs hierarchically; the rest as their defaults.
    const bool hier = runs(CollectiveAlgo::hierarchical, *op);
    const CollectiveAlgo algo = hier ? CollectiveAlgo::hierarchical : default_algo(*op);
    for (int n : nodes_) {
      const FabricBenchResult r = run_fabric_collective(box, n, *op, algo, Bytes(*parsed.bytes));
      rows.push_back({name, to_string(algo), fmt::format("{}", n), fmt::format("{}", r.gpus), format_seconds(r.simulated_s),
                      fmt::format("{}", r.copies), format_seconds(r.build_s), format_seconds(r.run_s),
                      format_seconds(r.cpu_s), fmt::format("{:.2f}", r.copies > 0 ? 1e6 * r.cpu_s / static_cast<double>(r.copies) : 0),
                      fmt::format("{:.0f}", r.peak_rss_mib)});
      std::fflush(stdout);
    }
  }
  std::fputs(format_table({"op", "algorithm", "nodes", "GPUs", "simulated", "copies", "build", "run", "CPU",
                           "CPU us/copy", "peak RSS MiB"},
                          rows)
                 .c_str(),
             stdout);
  if (routes_ > 0 && !nodes_.empty()) {
    const int n = nodes_.back();
    const RouteBenchResult r = run_fabric_routes(box, n, routes_);
    std::printf("\nRoutes on %d nodes (%d GPUs): %llu random GPU pairs in %s wall, %s CPU, %.0f ns CPU each (%llu "
                "directions); topology built in %s; peak RSS %.0f MiB\n",
                n, n * static_cast<int>(box.gpus.size()), static_cast<unsigned long long>(r.routes),
                format_seconds(r.seconds).c_str(), format_seconds(r.cpu_s).c_str(), r.ns_per_route, static_cast<unsigned long long>(r.directions),
                format_seconds(r.build_s).c_str(), peak_rss_mib());
  }
  std::printf("\n%s x nodes, every GPU in one group, S = %s; peak RSS is the process's so far (points run small to "
              "large). One core.\nCommand: parallax bench fabric --hardware %s --bytes %s",
              hardware_.c_str(), bytes_.c_str(), hardware_.c_str(), bytes_.c_str());
  for (int n : nodes_) std::printf(" --nodes %d", n);
  for (const std::string& op : ops_) std::printf(" --op %s", op.c_str());
  std::printf(" --routes %llu\n", static_cast<unsigned long long>(routes_));
  return 0;
}

}  // namespace parallax

// File: sim/scenario/scenario_loader_test.cpp
// The loader end to end: good scenarios, every class of user error with its exact message and
// place, --set overrides, preset deep merge, CSV transfers and the embedded quickstart.
#include "sim/scenario/scenario_loader.h"
#include "sim/scenario/transfer_csv.h"

#include <gtest/gtest.h>

namespace parallax {
namespace {

std::string error_of(std::string_view yaml, const std::vector<std::string>& overrides = {}) {
  try {
    load_scenario_text(yaml, "ring.yaml", overrides);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// Line numbers below count from this text's first line.
constexpr std::string_view kRing = R"(name: ring
hardware:
  preset: dgx-h100
  gpus: 4
workload:
  kind: transfers
  transfers:
    - {src: gpu0, dst: host, bytes: 1GiB, start_s: 0.5, name: save}
  collectives:
    - {op: all_reduce, group: [0, 1, 2, 3], bytes: 1e9}
)";

TEST(ScenarioLoader, LoadsTypedScenario) {
  const Scenario s = load_scenario_text(kRing, "ring.yaml");
  EXPECT_EQ(s.name, "ring");
  EXPECT_EQ(s.source, "ring.yaml");
  EXPECT_EQ(s.seed, 1u);
  EXPECT_EQ(s.workload_kind, "transfers");
  EXPECT_EQ(s.hardware.name, "dgx-h100");
  EXPECT_EQ(s.hardware.gpus.size(), 4u);  // override of the preset's 8
  ASSERT_EQ(s.transfers.transfers.size(), 1u);
  EXPECT_EQ(s.transfers.transfers[0].dst, "host0");
  EXPECT_EQ(s.transfers.transfers[0].bytes, int64_t{1} << 30);
  EXPECT_EQ(s.transfers.transfers[0].start, Time::seconds(0.5));
  EXPECT_EQ(s.transfers.transfers[0].name, "save");
  ASSERT_EQ(s.transfers.collectives.size(), 1u);
  EXPECT_EQ(s.transfers.collectives[0].group, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(s.transfers.collectives[0].bytes, 1'000'000'000);
  EXPECT_EQ(s.transfers.collectives[0].algo, "ring");
  EXPECT_TRUE(s.output.trace);
}

TEST(ScenarioLoader, UnknownKeysSuggest) {
  EXPECT_EQ(error_of("name: r\nhardware:\n  preset: dgx-h100\n  gpuz: 4\n"),
            "ring.yaml:4:3: unknown key 'hardware.gpuz' (did you mean 'gpus'?)");
  EXPECT_EQ(error_of("name: r\nhardwre: dgx-h100\n"), "ring.yaml:2:1: unknown key 'hardwre' (did you mean 'hardware'?)");
  EXPECT_EQ(error_of("name: r\nhardware: dgx-h100\nworkload: {kind: transfers}\nzzz: 1\n"), "ring.yaml:4:1: unknown key 'zzz'");
  EXPECT_EQ(error_of("name: r\nhardware: {preset: dgx-h100, gpu: {smz: 1}}\n"),
            "ring.yaml:2:36: unknown key 'hardware.gpu.smz' (did you mean 'sms'?)");
}

TEST(ScenarioLoader, WrongTypes) {
  EXPECT_EQ(error_of("name: [a]\n"), "ring.yaml:1:7: 'name' must be a string, got a list");
  EXPECT_EQ(error_of("name: r\nseed: -1\n"), "ring.yaml:2:7: 'seed' must be a non-negative integer, got '-1'");
  EXPECT_EQ(error_of("name: r\nhardware: {preset: dgx-h100, gpus: eight}\n"),
            "ring.yaml:2:36: 'hardware.gpus' must be an integer, got 'eight'");
  EXPECT_EQ(error_of("name: r\nhardware: dgx-h100\nworkload: [transfers]\n"),
            "ring.yaml:3:11: 'workload' must be a mapping, got a list");
  EXPECT_EQ(error_of("name: r\nhardware: dgx-h100\nworkload: {kind: transfers}\noutput: {trace: maybe}\n"),
            "ring.yaml:4:17: 'output.trace' must be true or false, got 'maybe'");
  EXPECT_EQ(error_of("- a\n- b\n"), "ring.yaml:1:1: the document must be a mapping, got a list");
}

TEST(ScenarioLoader, MissingRequired) {
  EXPECT_EQ(error_of("hardware: dgx-h100\n"), "ring.yaml:1:1: missing required key 'name'");
  EXPECT_EQ(error_of("name: r\nhardware: dgx-h100\n"), "ring.yaml:1:1: missing required key 'workload'");
  EXPECT_EQ(error_of("name: r\nhardware: dgx-h100\nworkload:\n  transfers: []\n"),
            "ring.yaml:4:3: missing required key 'workload.kind'");
  EXPECT_EQ(error_of("name: r\nhardware: dgx-h100\nworkload:\n  kind: transfers\n  transfers:\n    - {src: gpu0, dst: gpu1}\n"),
            "ring.yaml:6:7: missing required key 'workload.transfers.0.bytes'");
  EXPECT_EQ(error_of("name: r\nhardware: {gpus: 2}\n"), "ring.yaml:2:11: missing required key 'hardware.gpu'");
  EXPECT_EQ(error_of(""), "ring.yaml: the scenario is empty");
}

TEST(ScenarioLoader, OutOfRange) {
  const std::string head = "name: r\nhardware: dgx-h100\nworkload:\n  kind: transfers\n";
  EXPECT_EQ(error_of(head + "  transfers: [{src: gpu0, dst: gpu1, bytes: -8}]\n"),
            "ring.yaml:5:45: 'workload.transfers.0.bytes': byte count must not be negative, got '-8'");
  EXPECT_EQ(error_of(head + "  transfers: [{src: gpu0, dst: gpu1, bytes: 8, start_s: .nan}]\n"),
            "ring.yaml:5:57: 'workload.transfers.0.start_s' must be a finite number, got '.nan'");
  EXPECT_EQ(error_of(head + "  transfers: [{src: gpu0, dst: gpu1, bytes: 8, start_s: -1}]\n"),
            "ring.yaml:5:57: 'workload.transfers.0.start_s' must not be negative, got -1");
  EXPECT_EQ(error_of("name: r\nhardware: {preset: dgx-h100, gpus: 0}\n"),
            "ring.yaml:2:36: 'hardware.gpus' must be at least 1, got 0");
  EXPECT_EQ(error_of("name: r\nhardware:\n  preset: dgx-h100\n  topology: {link: {GBps: 0}}\n"),
            "ring.yaml:4:27: 'hardware.topology.link.GBps' must be greater than 0, got 0");
  // Past what the clock holds over a run (input_limits.h): the limit in the key's unit, and why.
  EXPECT_EQ(error_of("name: r\nhardware:\n  preset: dgx-h100\n  topology: {link: {GBps: 1, latency_us: 1e13}}\n"),
            "ring.yaml:4:42: 'hardware.topology.link.latency_us' must be at most 1e+06, got 1e13 (a single delay is at "
            "most 1 s, so that delays x steps stay within the clock (int64 picoseconds))");
  EXPECT_EQ(error_of(head + "  collectives: [{op: all_reduce, group: [0], bytes: 1}]\n"),
            "ring.yaml:5:41: 'workload.collectives.0.group' must hold at least 2 GPUs, got 1");
  EXPECT_EQ(error_of(head + "  collectives: [{op: all_reduce, group: [0, 8], bytes: 1}]\n"),
            "ring.yaml:5:45: 'workload.collectives.0.group.1' must be at most 7, got 8");
  EXPECT_EQ(error_of(head + "  collectives: [{op: allreduce, bytes: 1}]\n"),
            "ring.yaml:5:22: 'workload.collectives.0.op' must be one of all_reduce, all_gather, reduce_scatter, "
            "all_to_all, broadcast, reduce, send_recv; got "
            "'allreduce' (did you mean 'all_reduce'?)");
}

TEST(ScenarioLoader, UnknownPresetAndKind) {
  EXPECT_EQ(error_of("name: r\nhardware: dgx-h10\n"),
            "ring.yaml:2:11: unknown hardware preset 'dgx-h10' (did you mean 'dgx-h100'?); presets: a100x4-nvlink-pairs, "
            "a6000x8-nvlink-pairs, dgx-a100, dgx-h100, h100x4-nvlink-pairs, h200x1, v100x4-gn6e");
  EXPECT_EQ(error_of("name: r\nhardware: dgx-h100\nworkload: {kind: transfer}\n"),
            "ring.yaml:3:18: unknown workload kind 'transfer' (did you mean 'transfers'?); kinds: transfers, overlap, serverless, colocate, multiplex, cluster_packing, training, chakra");
}

TEST(ScenarioLoader, UnknownNodes) {
  const std::string head = "name: r\nhardware: dgx-h100\nworkload:\n  kind: transfers\n";
  EXPECT_EQ(error_of(head + "  transfers: [{src: gpu0, dst: gpu9, bytes: 1}]\n"),
            "ring.yaml:5:32: 'workload.transfers.0.dst': unknown node 'gpu9' (nodes: gpu0..gpu7, host0, nvswitch, "
            "pcie_sw0, pcie_sw1, pcie_sw2, pcie_sw3)");
  EXPECT_EQ(error_of(head + "  transfers: [{src: nvswitch, dst: gpu1, bytes: 1}]\n"),
            "ring.yaml:5:21: 'workload.transfers.0.src': 'nvswitch' is a switch; transfers run between GPUs and hosts");
  EXPECT_EQ(error_of(head + "  transfers: [{src: gpu1, dst: gpu1, bytes: 1}]\n"),
            "ring.yaml:5:32: 'workload.transfers.0' has the same src and dst 'gpu1'");
  EXPECT_EQ(error_of("name: r\nhardware:\n  preset: h200x1\n  links:\n    - {a: gpu0, b: hots0, GBps: 1}\n"),
            "ring.yaml:5:20: 'hardware.links.0.b' names unknown node 'hots0' (nodes: gpu0, host0)");
}

TEST(ScenarioLoader, DisconnectedNodeIsNamed) {
  const std::string inline_hw =
      "name: r\nhardware:\n  gpu: {sms: 1, peak_tflops: 1, hbm_GBps: 1, memory_GiB: 1}\n  gpus: 3\n"
      "  links: [{a: gpu0, b: host, GBps: 1}, {a: gpu1, b: host0, GBps: 1}]\n";
  EXPECT_EQ(error_of(inline_hw), "ring.yaml:3:3: gpu2 is not connected to gpu0: no links reach it (add links or a topology shape)");
}

TEST(ScenarioLoader, YamlSyntaxErrorIsLocated) {
  EXPECT_EQ(error_of("name: r\nhardware: {preset: dgx-h100\n"), "ring.yaml:3:1: YAML syntax error: end of map flow not found");
}

TEST(ScenarioLoader, SetOverrides) {
  const Scenario s = load_scenario_text(
      kRing, "ring.yaml",
      {"workload.collectives.0.bytes=64MiB", "hardware.gpus=16", "seed=7", "workload.transfers.0.dst=gpu15",
       "hardware.topology.link.GBps=370", "output.trace=false"});
  EXPECT_EQ(s.transfers.collectives[0].bytes, 64 << 20);
  EXPECT_EQ(s.hardware.gpus.size(), 16u);
  EXPECT_EQ(s.seed, 7u);
  EXPECT_EQ(s.transfers.transfers[0].dst, "gpu15");
  EXPECT_DOUBLE_EQ(s.hardware.links[0].bandwidth_Bps, 370e9);
  EXPECT_FALSE(s.output.trace);
  // On a scenario that names its preset as a plain string.
  const Scenario q = load_scenario_text(embedded_quickstart(), std::string(kQuickstartSource), {"hardware.gpus=16"});
  EXPECT_EQ(q.hardware.gpus.size(), 16u);
  EXPECT_EQ(q.hardware.name, "dgx-h100");
}

TEST(ScenarioLoader, SetErrorsPointAtTheCommandLine) {
  EXPECT_EQ(error_of(kRing, {"hardware.gpus"}), "<command line>: --set 'hardware.gpus': expected dotted.path=value");
  EXPECT_EQ(error_of(kRing, {"hardware.gpus=0"}), "<command line>: 'hardware.gpus' must be at least 1, got 0");
  EXPECT_EQ(error_of(kRing, {"hardware.gpuz=4"}), "<command line>: unknown key 'hardware.gpuz' (did you mean 'gpus'?)");
  EXPECT_EQ(error_of(kRing, {"workload.collectives.3.bytes=1"}),
            "<command line>: --set 'workload.collectives.3.bytes=1': index 3 is out of range for 'workload.collectives' (1 items)");
}

// A key set at the wrong depth is found where it lives: the colocate tutorial's slip
// (--set workload.ls.rate_per_s) names workload.ls.arrivals.rate_per_s.
TEST(ScenarioLoader, SetKeyAtTheWrongDepthSuggestsTheFullPath) {
  std::string got = "no error";
  try {
    load_scenario_file("scenarios/colocate/sgdrc-h200.yaml", {"workload.ls.rate_per_s=3000"});
  } catch (const InputError& e) {
    got = e.what();
  }
  EXPECT_EQ(got, "<command line>: unknown key 'workload.ls.rate_per_s' (did you mean 'workload.ls.arrivals.rate_per_s'?)");
  // A list item's keys are searched too; a key found nowhere gets no suggestion.
  EXPECT_EQ(error_of(kRing, {"workload.bytes=1"}),
            "<command line>: unknown key 'workload.bytes' (did you mean 'workload.transfers.0.bytes'?)");
  EXPECT_EQ(error_of(kRing, {"workload.zzzzzz=1"}), "<command line>: unknown key 'workload.zzzzzz'");
}

TEST(ScenarioLoader, PresetOverrideDeepMerges) {
  const Scenario s = load_scenario_text(
      "name: m\nhardware:\n  preset: dgx-h100\n  name: my-box\n  gpu: {sms: 100}\n"
      "  topology: {link: {GBps: 370}}\n  links: [{a: gpu0, b: gpu1, kind: nvlink, GBps: 10}]\n"
      "workload: {kind: transfers}\n",
      "m.yaml");
  const HardwareSpec& h = s.hardware;
  EXPECT_EQ(h.name, "my-box");
  EXPECT_EQ(h.gpus[0].sms, 100);                      // overridden
  EXPECT_DOUBLE_EQ(h.gpus[0].peak_flops, 989.4e12);  // kept from the preset
  EXPECT_EQ(h.gpus[0].model, "H100-SXM5");
  EXPECT_DOUBLE_EQ(h.links[0].bandwidth_Bps, 370e9);     // link merged: GBps replaced...
  EXPECT_DOUBLE_EQ(h.links[0].latency_s, 0.5e-6);        // ...latency kept
  EXPECT_EQ(h.links.size(), 21u);                        // 20 from the shape + 1 explicit
  EXPECT_EQ(h.switches.size(), 5u);
}

TEST(ScenarioLoader, ErrorsAreLocatedInTheFileThatHoldsTheValue) {
  // Switching the preset's shape leaves the preset's crossbar parameters behind: the error points
  // into the embedded preset file, under the scenario's dotted key.
  EXPECT_EQ(error_of("name: r\nhardware: {preset: dgx-h100, topology: {shape: nvlink_pairs}}\n"),
            "scenarios/hardware/dgx-h100.yaml:33:3: unknown key 'hardware.topology.switch_name'");
  // A value from the scenario is reported in the scenario.
  EXPECT_EQ(error_of("name: r\nhardware: {preset: dgx-h100, topology: {host_link: fast}}\n"),
            "ring.yaml:2:52: 'hardware.topology.host_link' must be a mapping, got a scalar");
}

TEST(ScenarioLoader, TransfersFromCsvFollowInlineOnes) {
  const Scenario s = load_scenario_file("tests/data/scenario/with_csv.yaml");
  EXPECT_EQ(s.transfers.transfers_csv, "tests/data/scenario/transfers.csv");
  ASSERT_EQ(s.transfers.transfers.size(), 1u);  // the inline one; CSV rows are read as the replay runs
  EXPECT_EQ(s.transfers.transfers[0].bytes, 1 << 20);
  EXPECT_EQ(s.transfers.csv_rows, 2u);
  TransferCsvStream rows(s.transfers, NodeDirectory(s.hardware));
  ASSERT_NE(rows.peek(), nullptr);
  const TransferSpec first = rows.take().spec;
  EXPECT_EQ(first.name, "load0");
  EXPECT_EQ(first.src, "host0");
  ASSERT_NE(rows.peek(), nullptr);
  const TransferSpec second = rows.take().spec;
  EXPECT_EQ(second.src, "gpu3");
  EXPECT_EQ(second.bytes, 1'000'000'000);
  EXPECT_EQ(second.start, Time::seconds(0.25));
  EXPECT_EQ(rows.peek(), nullptr);
}

TEST(ScenarioLoader, BadCsvRowIsLocated) {
  try {
    load_scenario_file("tests/data/scenario/bad_row.yaml");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "tests/data/scenario/bad_row.csv:3: column 'bytes': byte count must not be negative, got '-1GiB'");
  }
  EXPECT_EQ(error_of("name: r\nhardware: dgx-h100\nworkload: {kind: transfers, transfers_csv: nope.csv}\n"),
            "ring.yaml:3:44: 'workload.transfers_csv': cannot open 'nope.csv' (resolved to 'nope.csv')");
}

TEST(ScenarioLoader, MissingFile) {
  try {
    load_scenario_file("no/such/file.yaml");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "no/such/file.yaml: no such file or directory");
  }
}

TEST(ScenarioLoader, QuickstartLoads) {
  const Scenario s = load_scenario_text(embedded_quickstart(), std::string(kQuickstartSource));
  EXPECT_EQ(s.name, "quickstart");
  EXPECT_EQ(s.hardware.name, "dgx-h100");
  EXPECT_EQ(s.hardware.gpus.size(), 8u);
  ASSERT_EQ(s.transfers.transfers.size(), 10u);
  for (int g = 0; g < 8; ++g) {
    EXPECT_EQ(s.transfers.transfers[static_cast<size_t>(g)].src, "host0");
    EXPECT_EQ(s.transfers.transfers[static_cast<size_t>(g)].dst, gpu_node_name(g));
    EXPECT_EQ(s.transfers.transfers[static_cast<size_t>(g)].bytes, int64_t{2} << 30);
  }
  EXPECT_EQ(s.transfers.transfers[8].src, "gpu0");
  EXPECT_EQ(s.transfers.transfers[9].src, "gpu1");
  EXPECT_EQ(s.transfers.transfers[9].dst, "gpu4");
  EXPECT_EQ(s.transfers.transfers[9].bytes, int64_t{4} << 30);
  EXPECT_EQ(s.transfers.transfers[9].start, Time::seconds(0.2));
  ASSERT_EQ(s.transfers.collectives.size(), 1u);
  EXPECT_EQ(s.transfers.collectives[0].group.size(), 8u);
  EXPECT_EQ(s.transfers.collectives[0].bytes, int64_t{1} << 30);
  EXPECT_EQ(s.transfers.collectives[0].start, Time::seconds(0.1));
  // The file on disk is the embedded one.
  EXPECT_EQ(load_scenario_file("scenarios/quickstart.yaml").transfers.transfers.size(), 10u);
}

}  // namespace
}  // namespace parallax

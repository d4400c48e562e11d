// File: sim/scenario/calibration_reader_test.cpp
// Calibration files: what `parallax fit` writes reads back; malformed files fail at file:line:col
// with the key; a scenario's `calibration:` key changes the machine as calibration_apply.h says.
#include "sim/scenario/calibration_reader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "sim/scenario/calibration_apply.h"
#include "sim/scenario/scenario_loader.h"

namespace parallax {
namespace {

models::Calibration sample() {
  models::Calibration c;
  c.gpu = "NVIDIA H200";
  c.provenance.source = "out/h200";
  c.provenance.rows = 42;
  c.provenance.gpu_name = "NVIDIA H200";
  c.provenance.sm_count = 132;
  c.provenance.sm_clock_mhz = 1980;
  c.provenance.fit_by = "abc";
  models::GemmCalibration g;
  g.params.sms = 132;
  g.params.peak_flops = 989e12;
  g.params.hbm_Bps = 4.8e12;
  g.params.tile_n = 64;
  g.params.eta_max = 0.71;
  g.params.k_half = 120.5;
  g.params.overhead_s = 4.1e-6;
  g.rows = 20;
  g.rms_log_error = 0.031;
  c.gemm = g;
  c.copy.push_back({"h2d", "pinned", 9e-6, 53e9, 8});
  c.copy.push_back({"d2h", "pinned", 11e-6, 55e9, 8});
  c.copy.push_back({"h2d", "pageable", 20e-6, 20e9, 8});
  c.launch.push_back({"launch", 2.4e-6, 4});
  c.interference = models::InterferenceCalibration{{-0.1, 0.2, 0.05, 0.3, 1.01}, 12};
  c.interdecom.push_back({8192, 8192, 8192, 16, 134217728, 2e-5, 1.5e-3, 9e-4, 9});
  c.sm_scaling = models::SmScalingCalibration{51.5e9, 4.02e12, 0.49e12, 8};
  models::CollectiveCalibration k;
  k.op = "all_gather";
  k.ranks = 16;
  k.link_Bps = 450e9;
  k.step_latency_s = 2.29e-6;
  k.bandwidth_efficiency = 0.6536;
  k.rows = 24;
  c.collectives.push_back(k);
  k.nodes = 2;  // the same group measured across two boxes: a fit of its own
  k.bandwidth_efficiency = 0.1;
  k.network = models::NetworkCalibration{8, 40.8e9, 8.18e-6, 0.035, 0.052};
  c.collectives.push_back(k);
  return c;
}

std::string error_of(const std::string& text) {
  try {
    parse_calibration(text, "c.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(CalibrationFile, WhatFitWritesReadsBack) {
  const models::Calibration c = sample();
  const std::string text = models::format_calibration_yaml(c);
  const models::Calibration back = parse_calibration(text, "c.yaml");
  EXPECT_EQ(back.gpu, c.gpu);
  EXPECT_EQ(back.provenance.rows, 42);
  EXPECT_EQ(back.provenance.sm_clock_mhz, 1980.0);
  ASSERT_TRUE(back.gemm.has_value());
  EXPECT_EQ(back.gemm->params.tile_n, 64);
  EXPECT_EQ(back.gemm->params.k_half, 120.5);
  ASSERT_EQ(back.copy.size(), 3u);
  EXPECT_EQ(back.copy[1].bandwidth_Bps, 55e9);
  EXPECT_EQ(back.interference->coefficients.l2_self, -0.1);
  EXPECT_EQ(back.interdecom[0].c_s, 9e-4);
  ASSERT_TRUE(back.sm_scaling.has_value());
  EXPECT_EQ(back.sm_scaling->bw_per_sm_Bps, 51.5e9);
  EXPECT_EQ(back.sm_scaling->flops_per_sm, 0.49e12);
  ASSERT_NE(back.find_collective("all_gather", 16, 1), nullptr);
  EXPECT_EQ(back.find_collective("all_gather", 16, 1)->bandwidth_efficiency, 0.6536);
  ASSERT_NE(back.find_collective("all_gather", 16, 2), nullptr);
  EXPECT_EQ(back.find_collective("all_gather", 16, 2)->bandwidth_efficiency, 0.1);
  EXPECT_EQ(back.find_collective("all_gather", 16, 4), nullptr);
  ASSERT_NE(back.find_network("all_gather"), nullptr);
  EXPECT_EQ(back.find_network("all_gather")->network->nic_Bps, 40.8e9);
  EXPECT_EQ(back.find_network("all_gather")->network->nics_per_node, 8);
  EXPECT_EQ(back.find_network("all_reduce"), nullptr);
  EXPECT_EQ(models::format_calibration_yaml(back), text);  // deterministic, lossless
}

TEST(CalibrationFile, MalformedFilesFailAtTheKey) {
  const std::string head = "format: parallax-calibration/1\ngpu: x\nprovenance: {source: s, rows: 1}\n";
  EXPECT_EQ(error_of(head + "copy:\n  - {kind: h2d, host_memory: pinned, latency_s: 1e-6, bandwidth_Bps: -5, rows: 2}\n"),
            "c.yaml:5:70: 'copy.0.bandwidth_Bps' must be greater than 0, got -5");
  EXPECT_EQ(error_of(head + "gemmm: {}\n"), "c.yaml:4:1: unknown key 'gemmm' (did you mean 'gemm'?)");
  EXPECT_EQ(error_of("format: parallax-calibration/2\ngpu: x\nprovenance: {source: s, rows: 1}\n"),
            "c.yaml:1:9: 'format' must be parallax-calibration/1, got 'parallax-calibration/2'");
  EXPECT_EQ(error_of(head + "launch:\n  - {what: launch, rows: 2}\n"),
            "c.yaml:5:5: missing required key 'launch.0.seconds'");
  EXPECT_EQ(error_of(head + "sm_scaling: {bw_per_sm_Bps: 0, hbm_Bps: 4e12, flops_per_sm: 1e12, rows: 3}\n"),
            "c.yaml:4:29: 'sm_scaling.bw_per_sm_Bps' must be greater than 0, got 0");
}

TEST(CalibrationFile, ScenarioKeyChangesTheMachine) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("parallax-calib-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "h200.yaml") << models::format_calibration_yaml(sample());
  const std::string scenario =
      "name: c\nhardware: h200x1\ncalibration: h200.yaml\n"
      "workload: {kind: transfers, transfers: [{src: host0, dst: gpu0, bytes: 1MiB}]}\n";
  std::ofstream(dir / "s.yaml") << scenario;
  const Scenario s = load_scenario_file((dir / "s.yaml").string(), {});
  const GpuSpec& g = s.hardware.gpus.front();
  ASSERT_TRUE(g.gemm.has_value());
  EXPECT_EQ(g.gemm->eta_max, 0.71);
  EXPECT_EQ(g.kernel_launch_s, 2.4e-6);
  EXPECT_EQ(g.bw_per_sm_Bps, 51.5e9);  // the sm_scaling fit replaces the preset's 2·HBM/SMs
  EXPECT_EQ(g.copy_engine_Bps, 55e9);  // the largest pinned copy, pageable excluded
  ASSERT_EQ(s.hardware.links.size(), 1u);  // h200x1: gpu0 - host0, PCIe
  EXPECT_EQ(s.hardware.links[0].bandwidth_Bps, 55e9);
  EXPECT_DOUBLE_EQ(s.hardware.links[0].latency_s, 10e-6);
  EXPECT_NE(s.hardware.sources.back().find("calibration: "), std::string::npos);

  std::ofstream(dir / "missing.yaml") << "name: c\nhardware: h200x1\ncalibration: nope.yaml\n"
                                         "workload: {kind: transfers, transfers: []}\n";
  try {
    load_scenario_file((dir / "missing.yaml").string(), {});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().line, 3);
    EXPECT_EQ(e.key(), "calibration");
    EXPECT_NE(std::string(e.what()).find("nope.yaml' not found"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace parallax

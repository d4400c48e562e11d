// File: tools/fit_command.cpp
// `parallax fit` / `parallax validate` (fit_command.h): reading, choosing the hardware numbers,
// writing; the fits themselves are models/calibration_data.
#include "tools/fit_command.h"

#include <array>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/calibration_data/calibration_file.h"
#include "models/calibration_data/measurement_csv.h"
#include "models/calibration_data/measurement_fit.h"
#include "models/calibration_data/nccl_net_fit.h"
#include "models/calibration_data/nccl_tests_fit.h"
#include "models/calibration_data/nccl_tests_log.h"
#include "models/error_stats.h"
#include "sim/platform/sim_platform.h"
#include "sim/policies/overlap/ring_hops.h"
#include "sim/report/atomic_file.h"
#include "sim/report/json_output.h"
#include "sim/predict/nccl_fabric.h"
#include "tools/report_command.h"
#include "hw/realtime_prediction.h"
#include "sim/scenario/calibration_reader.h"
#include "sim/scenario/scenario_loader.h"
#include "sim/experiment/version.h"

namespace parallax {

namespace {

[[noreturn]] void bad_argument(const std::string& option, const std::string& message) {
  throw InputError(SourceLocation{"<command line>", 0, 0}, option, fmt::format("{}: {}", option, message));
}

// The preset named, or the one matching the measured GPU.
HardwareSpec hardware_for(const std::string& preset, const std::string& gpu_name) {
  if (!preset.empty()) return load_hardware_preset(preset);
  if (gpu_name.find("H200") != std::string::npos) return load_hardware_preset("h200x1");
  if (gpu_name.find("H100") != std::string::npos) return load_hardware_preset("dgx-h100");
  if (gpu_name.find("A100") != std::string::npos) return load_hardware_preset("dgx-a100");
  bad_argument("--hardware", fmt::format("no preset matches the measured GPU '{}'; name one", gpu_name));
}

models::GpuComputeParams compute_params(const HardwareSpec& hw) {
  models::GpuComputeParams p;
  p.sms = hw.gpus.front().sms;
  p.peak_flops = hw.gpus.front().peak_flops;
  p.hbm_Bps = hw.gpus.front().hbm_Bps;
  return p;
}

std::string slug(const std::string& name) {
  std::string s;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!s.empty() && s.back() != '-') s += '-';
  }
  while (!s.empty() && s.back() == '-') s.pop_back();
  return s.empty() ? "gpu" : s;
}

std::vector<models::Measurement> read_dir(const std::string& dir) {
  return models::read_measurements_csv((std::filesystem::path(dir) / "measurements.csv").string());
}

// A multi-node log in NCCL's structure (models/calibration_data/nccl_net_fit.h): the preset's box
// and NICs (one per GPU when the preset has no fabric), NIC rate and latencyInter fitted; kept
// beside the group's effective fit so `predict --calibration` can answer other node counts.
std::optional<models::NetworkCalibration> fit_network(const HardwareSpec& hw, const models::NcclTestsLog& log,
                                                      models::CollectiveOp op, int64_t ranks, int64_t nodes) {
  const int64_t per_node = ranks / nodes;
  const int64_t box_gpus = static_cast<int64_t>(hw.gpus.size());
  if (per_node > box_gpus) {
    std::printf("  network: not fitted (%lld GPUs per node, '%s' has %lld)\n", static_cast<long long>(per_node),
                hw.name.c_str(), static_cast<long long>(box_gpus));
    return std::nullopt;
  }
  std::vector<int> order;
  for (int i = 0; i < std::max<int64_t>(per_node, 2); ++i) order.push_back(i);
  models::NcclBox box = nccl_box(hw, box_ring(hw, order));
  box.net.nodes = static_cast<int>(nodes);
  box.net.gpus_per_node = static_cast<int>(box_gpus);
  box.net.nics_per_node = hw.fabric.nics.empty() ? static_cast<int>(box_gpus) : static_cast<int>(hw.fabric.nics.size());
  const models::NcclNetFit net = models::fit_nccl_net(log, op, static_cast<int>(ranks), box);
  std::printf("  network in NCCL's structure (%d NICs per node): NIC %.4g GB/s, latencyInter %.3g s; median %.3f, max %.3f;"
              " held out (every 4th size): median %.3f, max %.3f\n",
              box.net.nics_per_node, net.nic_Bps / 1e9, net.hop_latency_s, net.in_sample.median, net.in_sample.max,
              net.held_out.median, net.held_out.max);
  return models::NetworkCalibration{box.net.nics_per_node, net.nic_Bps, net.hop_latency_s, net.in_sample.median,
                                    net.held_out.median};
}

// One log: fit its (op, ranks, nodes) group into `c` (replacing an earlier fit of that group), print it.
void fit_one_log(const FitOptions& o, const HardwareSpec& hw, const std::string& path, models::Calibration& c) {
  const models::NcclTestsLog log = models::read_nccl_tests_log(path);
  const std::string op_name = o.op.empty() ? log.collective : o.op;
  if (op_name.empty()) bad_argument("--op", fmt::format("{} does not say which collective it ran; pass --op", path));
  const auto op = models::parse_collective_op(op_name);
  if (!op) bad_argument("--op", fmt::format("unknown collective '{}'; ops: {}", op_name, models::collective_op_names()));
  const int64_t ranks = o.gpus > 0 ? o.gpus : log.ranks;
  if (ranks < 2) bad_argument("--gpus", fmt::format("{} has no rank lines; pass --gpus P (the ranks of the run)", path));
  const int64_t nodes = o.nodes > 0 ? o.nodes : std::max(log.nodes, 1);
  if (nodes > ranks || ranks % nodes != 0)
    bad_argument("--nodes", fmt::format("{}: {} ranks do not spread evenly over {} nodes", path, ranks, nodes));
  // Recorded for reference: the bottleneck hop of a ring over the preset's first GPUs.
  std::vector<int> order;
  for (int i = 0; i < std::min<int64_t>(ranks, static_cast<int64_t>(hw.gpus.size())); ++i) order.push_back(i);
  if (order.size() < 2) bad_argument("--hardware", fmt::format("'{}' has a single GPU: no link to refer to", hw.name));
  const double link_Bps = box_ring(hw, order).bottleneck_Bps();
  models::NcclTestsFit fit = models::fit_nccl_tests(log, *op, static_cast<int>(ranks), link_Bps);
  fit.calibration.nodes = static_cast<int>(nodes);
  if (c.gpu.empty()) {
    c.gpu = log.devices.empty() ? hw.gpus.front().model : log.devices.front();
    c.provenance.gpu_name = log.devices.empty() ? "" : log.devices.front();
  }
  std::erase_if(c.collectives, [&](const models::CollectiveCalibration& k) {
    return k.op == fit.calibration.op && k.ranks == fit.calibration.ranks && k.nodes == fit.calibration.nodes;
  });
  c.collectives.push_back(fit.calibration);
  const models::CollectiveCalibration& k = fit.calibration;
  std::printf("%s, %lld ranks on %d node%s, %d rows of %s\n", k.op.c_str(), static_cast<long long>(ranks), k.nodes,
              k.nodes == 1 ? "" : "s", k.rows, path.c_str());
  for (const models::ProtocolCalibration& p : k.protocols)
    std::printf("  %s %-6s latency %.3g s, busbw %.4g GB/s\n", p.algorithm.c_str(), p.protocol.c_str(), p.latency_s,
                p.busbw_Bps / 1e9);
  std::printf("  relative error on the log: median %.3f, P95 %.3f, max %.3f\n", k.median_rel_error, k.p95_rel_error,
              k.max_rel_error);
  std::printf("  held out (every 4th size, refitted on the rest): median %.3f, P95 %.3f, max %.3f\n",
              fit.held_out.median, fit.held_out.p95, fit.held_out.max);
  if (nodes > 1) c.collectives.back().network = fit_network(hw, log, *op, ranks, nodes);
}

int fit_nccl_tests_command(const FitOptions& o) {
  if (o.hardware.empty()) bad_argument("--hardware", "required with --nccl-tests (it names the GPUs)");
  if (o.out.empty()) bad_argument("--out", "required with --nccl-tests");
  require_writable_target(o.out);  // before it is read as the calibration to extend
  const HardwareSpec hw = load_hardware_preset(o.hardware);
  models::Calibration c;
  if (std::filesystem::exists(o.out)) {
    c = read_calibration(o.out);
  } else {
    std::string sources;
    for (const std::string& path : o.nccl_tests) sources += (sources.empty() ? "" : ", ") + path;
    c.provenance.source = sources;
    c.provenance.fit_by = kParallaxGitCommit;
    c.provenance.split = "all rows of each log (#wrong = 0)";
  }
  for (const std::string& path : o.nccl_tests) fit_one_log(o, hw, path, c);
  c.provenance.rows = 0;
  for (const auto& k : c.collectives) c.provenance.rows += k.rows;
  write_file_atomically(o.out, models::format_calibration_yaml(c));
  std::printf("wrote %s\n", o.out.c_str());
  return 0;
}

}  // namespace

CLI::App* add_fit_subcommand(CLI::App& app, FitOptions& o) {
  CLI::App* cmd = app.add_subcommand("fit", "Fit model parameters to measurements (docs/calibration.md)");
  cmd->add_option("dir", o.dir, "folder holding measurements.csv (from parallax hw calibrate)");
  cmd->add_option("--nccl-tests", o.nccl_tests, "fit the collective model to these nccl-tests logs instead (one group each)");
  cmd->add_option("--hardware", o.hardware, "hardware preset (default: from the measured GPU's name)");
  cmd->add_option("--op", o.op, "nccl-tests: all_reduce | all_gather | reduce_scatter | all_to_all | broadcast | reduce | send_recv (default: from each log)");
  cmd->add_option("--gpus", o.gpus, "nccl-tests: ranks of the run (default: the log's rank lines)")
      ->check(CLI::Range(int64_t{2}, int64_t{65536}));
  cmd->add_option("--nodes", o.nodes, "nccl-tests: nodes of the run (default: the hosts of the log's rank lines, else 1)")
      ->check(CLI::Range(int64_t{1}, int64_t{65536}));
  cmd->add_option("--out", o.out, "calibration file (default: results/calibration/<gpu>.yaml)");
  return cmd;
}

CLI::App* add_validate_subcommand(CLI::App& app, ValidateOptions& o) {
  CLI::App* cmd = app.add_subcommand("validate", "Predict every measured configuration; error table per family");
  cmd->add_option("dir", o.dir, "folder holding measurements.csv")->required();
  cmd->add_option("--calibration", o.calibration, "evaluate this calibration on every row (default: fit the training rows)");
  cmd->add_option("--hardware", o.hardware, "hardware preset (default: from the measured GPU's name)");
  return cmd;
}

int fit_command(const FitOptions& o) {
  if (!o.nccl_tests.empty()) {
    if (!o.dir.empty()) bad_argument("dir", "give either DIR or --nccl-tests, not both");
    return fit_nccl_tests_command(o);
  }
  if (o.dir.empty()) bad_argument("dir", "name the measurement folder (or --nccl-tests LOG)");
  if (!o.out.empty()) require_writable_target(o.out);
  const std::vector<models::Measurement> rows = read_dir(o.dir);
  if (rows.empty()) bad_argument("dir", fmt::format("{}/measurements.csv has no rows", o.dir));
  const HardwareSpec hw = hardware_for(o.hardware, rows.front().provenance.gpu_name);
  models::Calibration c = models::fit_measurements(rows, compute_params(hw), o.dir);
  c.provenance.fit_by = kParallaxGitCommit;
  c.provenance.split = "all rows";
  const std::string out =
      o.out.empty() ? (std::filesystem::path("results") / "calibration" / (slug(c.gpu) + ".yaml")).string() : o.out;
  write_file_atomically(out, models::format_calibration_yaml(c));
  std::printf("%zu rows of %s (%s, hardware preset %s)\n", rows.size(), o.dir.c_str(), c.gpu.c_str(), hw.name.c_str());
  if (c.gemm)
    std::printf("  gemm: %d rows, tile %lldx%lld, eta_max %.4f, k_half %.4g, eta_mem %.4f, overhead %.3g s; rms log error %.4f\n",
                c.gemm->rows, static_cast<long long>(c.gemm->params.tile_m), static_cast<long long>(c.gemm->params.tile_n),
                c.gemm->params.eta_max, c.gemm->params.k_half, c.gemm->params.eta_mem, c.gemm->params.overhead_s,
                c.gemm->rms_log_error);
  for (const auto& k : c.copy)
    std::printf("  copy %s/%s: %d rows, latency %.3g s, bandwidth %.4g GB/s\n", k.kind.c_str(), k.host_memory.c_str(),
                k.rows, k.latency_s, k.bandwidth_Bps / 1e9);
  for (const auto& l : c.launch) std::printf("  %s: %d rows, %.3g s per item\n", l.what.c_str(), l.rows, l.seconds);
  if (c.interference) {
    const auto& k = c.interference->coefficients;
    std::printf("  interference: %d co-run rows, c = (%.4f, %.4f, %.4f, %.4f, %.4f)\n", c.interference->rows, k.l2_self,
                k.l2_other, k.dram_self, k.dram_other, k.constant);
  }
  if (c.sm_scaling)
    std::printf("  sm_scaling: %d rows, %.4g GB/s per SM (HBM %.4g GB/s), %.4g GFLOP/s per SM\n", c.sm_scaling->rows,
                c.sm_scaling->bw_per_sm_Bps / 1e9, c.sm_scaling->hbm_Bps / 1e9, c.sm_scaling->flops_per_sm / 1e9);
  for (const auto& d : c.interdecom)
    std::printf("  interdecom %lldx%lldx%lld: %d rows, A %.3g s, B %.3g s, C %.3g s\n", d.m, d.n, d.k, d.rows, d.a_s, d.b_s, d.c_s);
  std::printf("wrote %s\n", out.c_str());
  return 0;
}

int validate_command(const ValidateOptions& o) {
  const std::vector<models::Measurement> rows = read_dir(o.dir);
  if (rows.empty()) bad_argument("dir", fmt::format("{}/measurements.csv has no rows", o.dir));
  const HardwareSpec hw = hardware_for(o.hardware, rows.front().provenance.gpu_name);
  const models::GpuComputeParams params = compute_params(hw);
  const bool given = !o.calibration.empty();
  std::vector<bool> held = models::held_out_rows(rows);
  models::Calibration c;
  if (given) {
    c = read_calibration(calibration_path(o.calibration, ""));
    held.assign(rows.size(), true);
  } else {
    std::vector<models::Measurement> train;
    for (size_t i = 0; i < rows.size(); ++i)
      if (!held[i]) train.push_back(rows[i]);
    c = models::fit_measurements(train, params, o.dir);
  }

  struct Family {
    int rows = 0, evaluated = 0;
    std::vector<double> errors;
    std::string worst_case;
    double worst = -1;
  };
  std::map<std::string, Family> families;
  // Rows of the families that run policy objects (colocate, serverless, multiplex, the overlap
  // graphs): their trial replayed on SimPlatform (hw/realtime_prediction.h). Nothing is fitted on
  // them, so every one is held out.
  hw::RealtimePredictor realtime(hw::simulated_gpu(c, rows));
  for (size_t i = 0; i < rows.size(); ++i)
    if (rows[i].family == models::MeasurementFamily::colocate || rows[i].family == models::MeasurementFamily::serverless ||
        rows[i].family == models::MeasurementFamily::multiplex)
      held[i] = true;
  std::string csv = "family,case,split,measured,predicted,rel_error,unit\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const models::Measurement& r = rows[i];
    const std::string family(models::to_string(r.family));
    Family& f = families[family];
    ++f.rows;
    std::optional<double> p = realtime.predict(r);
    if (p) held[i] = true;  // an overlap graph's row: simulated, not fitted
    if (!p) p = models::predict_measurement(r, c, rows, params);
    const std::string split = given ? "given" : (held[i] ? "held_out" : "train");
    std::string err;
    if (p) {
      const double e = models::relative_error(*p, r.value);
      err = fmt::format("{}", e);
      if (held[i]) {
        ++f.evaluated;
        f.errors.push_back(e);
        if (e > f.worst) f.worst = e, f.worst_case = r.case_id;
      }
    }
    csv += fmt::format("{},{},{},{},{},{},{}\n", family, r.case_id, split, r.value, p ? fmt::format("{}", *p) : "",
                       err, r.unit);
  }
  nlohmann::ordered_json json;
  json["source"] = o.dir;
  json["calibration"] = given ? o.calibration : "fitted on the training rows";
  json["split"] = given ? "every row evaluated against the given calibration" : models::kSplitRule;
  json["gpu"] = rows.front().provenance.gpu_name;
  nlohmann::ordered_json table = nlohmann::ordered_json::array();
  std::printf("%-12s %6s %9s %9s %9s %9s  %s\n", "family", "rows", "evaluated", "median", "p95", "worst", "worst case");
  for (const auto& [name, f] : families) {
    const models::ErrorSummary s = models::summarize_errors(f.errors);
    nlohmann::ordered_json t{{"family", name}, {"rows", f.rows}, {"evaluated", f.evaluated}};
    if (f.evaluated > 0) {
      t["median_rel_error"] = s.median;
      t["p95_rel_error"] = s.p95;
      t["max_rel_error"] = s.max;
      t["worst_case"] = f.worst_case;
      std::printf("%-12s %6d %9d %9.4f %9.4f %9.4f  %s\n", name.c_str(), f.rows, f.evaluated, s.median, s.p95, s.max,
                  f.worst_case.c_str());
    } else {
      std::printf("%-12s %6d %9d %9s %9s %9s  %s\n", name.c_str(), f.rows, 0, "-", "-", "-", "(no model fitted or wired)");
    }
    table.push_back(t);
  }
  json["families"] = table;
  const std::filesystem::path dir(o.dir);
  // Both or neither: the JSON text is made (it may fail) and both files written before either is
  // renamed into place.
  const std::string json_text = format_json(json);
  AtomicFileWriter csv_out(dir / "validation.csv");
  AtomicFileWriter json_out(dir / "validation.json");
  csv_out.stream() << csv;
  json_out.stream() << json_text;
  const std::array<AtomicFileWriter*, 2> outputs{&csv_out, &json_out};
  commit_together(outputs);
  write_validation_report(dir);  // the page `parallax report DIR` would write (docs/reports.md)
  std::printf("wrote %s, %s and %s\n", (dir / "validation.csv").c_str(), (dir / "validation.json").c_str(),
              (dir / "report.html").c_str());
  return 0;
}

}  // namespace parallax

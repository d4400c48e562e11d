// File: tools/predict_model.cpp
#include "tools/predict_model.h"

#include <cstdio>
#include <stdexcept>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/op_kernels.h"
#include "sim/report/json_output.h"
#include "sim/io/input_error.h"
#include "sim/scenario/scenario_loader.h"

namespace parallax {

namespace {

struct Gpu {
  GpuSpec spec;
  DeviceRates rates;
  GpuLimits limits;
};

// The preset's first GPU as the kernel model sees it. Per-SM bandwidth is 2·HBM/SMs (half the SMs
// saturate HBM), the same [assumption] as the colocate workload's default; η_c is the preset's
// fitted GEMM efficiency (models/gemm_cost.h) or its 0.75 default.
Gpu preset_gpu(const std::string& hardware) {
  const HardwareSpec hw = load_hardware_preset(hardware);
  if (hw.gpus.empty()) throw InputError({}, "hardware", fmt::format("'{}' has no GPU", hardware));
  Gpu g;
  g.spec = hw.gpus[0];
  g.rates.sms = g.spec.sms;
  g.rates.peak_flops = g.spec.peak_flops;
  g.rates.hbm_Bps = g.spec.hbm_Bps;
  g.rates.bw_per_sm_Bps = 2 * g.spec.hbm_Bps / g.spec.sms;
  g.rates.eta_compute = g.spec.gemm ? g.spec.gemm->eta_max : GemmEfficiency{}.eta_max;
  g.rates.launch_s = g.spec.kernel_launch_s;
  try {
    g.limits = gpu_limits_for(g.spec.model);
  } catch (const std::invalid_argument& e) {
    throw InputError({}, "hardware", e.what());
  }
  return g;
}

int chosen_sms(const Gpu& g, const std::optional<int>& sms) {
  if (!sms) return g.spec.sms;
  if (*sms < 1 || *sms > g.spec.sms)
    throw InputError({}, "sms", fmt::format("--sms {} is not in [1, {}] (the SMs of a {})", *sms, g.spec.sms, g.spec.model));
  return *sms;
}

DataType chosen_dtype(const std::string& name) {
  try {
    return data_type(name);
  } catch (const std::invalid_argument& e) {
    throw InputError({}, "dtype", e.what());
  }
}

nlohmann::ordered_json kernel_json(const OpKernel& k) {
  nlohmann::ordered_json j;
  j["name"] = k.name;
  j["kind"] = to_string(k.kind);
  j["config"] = k.config;
  j["grid_blocks"] = k.shape.grid_blocks;
  j["blocks_per_sm"] = k.shape.blocks_per_sm;
  j["sm_need"] = k.shape.sm_need();
  j["flops"] = k.shape.flops;
  j["dram_bytes"] = k.shape.dram_bytes;
  return j;
}

}  // namespace

std::pair<CLI::App*, CLI::App*> add_predict_model_subcommands(CLI::App& predict, PredictModelOptions& pm,
                                                              PredictGemmOptions& pg) {
  CLI::App* model = predict.add_subcommand("model", "A model's forward latency on part of one GPU, per kernel on request");
  model->add_option("--hardware", pm.hardware, "hardware preset (its first GPU)")->required();
  model->add_option("--model", pm.model, "resnet50 | resnet101 | resnet152 | densenet121 | densenet169 | densenet201 | "
                                         "inception_v3 | efficientnet_b0 | bert_base | bert_qa | gpt2 | llama2_7b | llama2_13b")
      ->required();
  model->add_option("--batch", pm.batch, "samples per forward pass")->check(CLI::Range(1, 1 << 20))->capture_default_str();
  model->add_option("--sequence", pm.sequence, "tokens per sample (transformers; default: the catalog's input)")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 20));
  model->add_option("--sms", pm.sms, "SMs the model may use (default: all)");
  model->add_option("--bandwidth-share", pm.bandwidth_share, "share of HBM bandwidth, in (0, 1]")->capture_default_str();
  model->add_option("--dtype", pm.dtype, "bf16 | fp16 | tf32")->capture_default_str();
  model->add_flag("--kernels", pm.kernels, "list every kernel: grid, blocks per SM, SMs used, FLOPs, bytes, time");
  CLI::App* gemm = predict.add_subcommand("gemm", "One GEMM's time and FLOP/s from the kernel model");
  gemm->add_option("--hardware", pg.hardware, "hardware preset (its first GPU)")->required();
  const auto dim = CLI::Range(int64_t{1}, int64_t{2147483647});
  gemm->add_option("--m", pg.m, "rows of A and C")->required()->check(dim);
  gemm->add_option("--n", pg.n, "columns of B and C")->required()->check(dim);
  gemm->add_option("--k", pg.k, "inner dimension")->required()->check(dim);
  gemm->add_option("--batch", pg.batch, "independent products (batched GEMM)")->check(CLI::Range(int64_t{1}, int64_t{1} << 20))
      ->capture_default_str();
  gemm->add_option("--dtype", pg.dtype, "bf16 | fp16 | tf32")->capture_default_str();
  gemm->add_option("--sms", pg.sms, "SMs the GEMM may use (default: all)");
  return {model, gemm};
}

int predict_model_command(const PredictModelOptions& o) {
  const Gpu g = preset_gpu(o.hardware);
  const int sms = chosen_sms(g, o.sms);
  const DataType dtype = chosen_dtype(o.dtype);
  if (!(o.bandwidth_share > 0 && o.bandwidth_share <= 1))
    throw InputError({}, "bandwidth-share", fmt::format("--bandwidth-share {} is not in (0, 1]", o.bandwidth_share));
  NetworkShape net;
  try {
    net = network_shape(o.model, o.batch, o.sequence);
  } catch (const std::invalid_argument& e) {
    throw InputError({}, "model", e.what());
  }
  const ModelLatency lat = model_latency(net, dtype, g.rates, g.limits, sms, o.bandwidth_share);
  nlohmann::ordered_json out;
  out["hardware"] = o.hardware;
  out["gpu"] = g.spec.model;
  out["model"] = net.model;
  out["batch"] = net.batch;
  if (net.sequence > 0) out["sequence"] = net.sequence;
  out["dtype"] = dtype.name;
  out["sms"] = sms;
  out["bandwidth_share"] = o.bandwidth_share;
  out["latency_s"] = lat.latency_s;
  out["kernel_count"] = lat.kernels.size();
  out["flops"] = lat.flops;
  out["dram_bytes"] = lat.dram_bytes;
  out["parameters"] = net.parameters();
  if (o.kernels) {
    nlohmann::ordered_json ks = nlohmann::ordered_json::array();
    for (const TimedKernel& t : lat.kernels) {
      nlohmann::ordered_json j = kernel_json(t.kernel);
      j["sms_used"] = t.sms_used;
      j["time_s"] = t.time_s;
      ks.push_back(std::move(j));
    }
    out["kernels"] = std::move(ks);
  }
  std::fputs(format_json(out).c_str(), stdout);
  return 0;
}

int predict_gemm_command(const PredictGemmOptions& o) {
  const Gpu g = preset_gpu(o.hardware);
  const int sms = chosen_sms(g, o.sms);
  const DataType dtype = chosen_dtype(o.dtype);
  const OpKernel k = gemm_kernel(o.m, o.n, o.k, o.batch, dtype, g.rates, g.limits, sms);
  DeviceRates r = g.rates;
  r.peak_flops *= dtype.rate_factor;
  const double time = kernel_time_s(k.shape, r, sms, 1.0);
  nlohmann::ordered_json out;
  out["hardware"] = o.hardware;
  out["gpu"] = g.spec.model;
  out["m"] = o.m;
  out["n"] = o.n;
  out["k"] = o.k;
  out["batch"] = o.batch;
  out["dtype"] = dtype.name;
  out["sms"] = sms;
  out["time_s"] = time;
  out["flops_per_s"] = k.shape.flops / time;
  out["kernel"] = kernel_json(k);
  std::fputs(format_json(out).c_str(), stdout);
  return 0;
}

}  // namespace parallax

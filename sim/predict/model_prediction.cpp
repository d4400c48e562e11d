// File: sim/predict/model_prediction.cpp
#include "sim/predict/model_prediction.h"

#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/op_kernels.h"
#include "sim/io/input_error.h"
#include "sim/platform/platform.h"
#include "sim/scenario/scenario_loader.h"

namespace parallax {

namespace {

struct Gpu {
  GpuSpec spec;
  DeviceRates rates;
  GpuLimits limits;
};

// The preset's first GPU as the kernel model sees it (device_rates_of: the platform's rates).
Gpu preset_gpu(const std::string& hardware) {
  const HardwareSpec hw = load_hardware_preset(hardware);
  if (hw.gpus.empty()) throw InputError({}, "hardware", fmt::format("'{}' has no GPU", hardware));
  Gpu g;
  g.spec = hw.gpus[0];
  g.rates = device_rates_of(g.spec);
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

nlohmann::ordered_json predict_model(const PredictModelOptions& o) {
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
  return out;
}

nlohmann::ordered_json predict_gemm(const PredictGemmOptions& o) {
  const Gpu g = preset_gpu(o.hardware);
  const int sms = chosen_sms(g, o.sms);
  const DataType dtype = chosen_dtype(o.dtype);
  const OpKernel k = gemm_kernel(o.m, o.n, o.k, o.batch, dtype, g.rates, g.limits, sms);
  const double time = kernel_time_s(k.shape, rates_for(g.rates, dtype), sms, 1.0);
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
  return out;
}

}  // namespace parallax

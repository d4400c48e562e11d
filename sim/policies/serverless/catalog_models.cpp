// File: sim/policies/serverless/catalog_models.cpp
#include "sim/policies/serverless/catalog_models.h"

#include <fmt/format.h>

#include <stdexcept>

#include "models/network_shapes.h"
#include "sim/platform/platform.h"
#include "sim/scenario/model_catalog_reader.h"

namespace parallax {

namespace {

ModelClass model_class(Heaviness h) {
  return h == Heaviness::light ? ModelClass::light : h == Heaviness::median ? ModelClass::median : ModelClass::heavy;
}

// Per group: the measurement spread by FLOP share, else the kernel model's time.
std::vector<double> group_times(const CatalogModel& c, const GpuSpec& gpu) {
  const int kind = catalog_gpu_kind(gpu.model);
  const double measured = kind >= 0 ? c.measured_s[static_cast<size_t>(kind)] : 0;
  if (measured <= 0) return kernel_model_group_times(c, gpu);
  const double total_flops = c.flops();
  std::vector<double> out;
  for (const CatalogLayer& l : c.layers)
    out.push_back(total_flops > 0 ? measured * l.flops / total_flops : measured / static_cast<double>(c.layers.size()));
  return out;
}

}  // namespace

std::vector<OpRange> catalog_group_ops(const CatalogModel& c, const NetworkShape& net) {
  const auto state = [&](size_t i) { return net.ops[i].weight_elements + net.ops[i].stat_elements; };
  std::vector<OpRange> out;
  size_t op = 0;
  for (const CatalogLayer& l : c.layers) {
    OpRange r{op, op};
    if (!l.unused) {
      const double params = static_cast<double>(l.param_bytes / c.dtype_bytes);
      double taken = 0;
      while (op < net.ops.size() && taken < params) taken += state(op++);
      while (op < net.ops.size() && state(op) == 0) ++op;  // parameter-free operators after its last
      if (taken != params)
        throw std::logic_error(fmt::format("{}: group '{}' has {} parameters, its operators {}", c.name, l.name,
                                           params, taken));
      r.last = op;
    }
    out.push_back(r);
  }
  if (op != net.ops.size())
    throw std::logic_error(fmt::format("{}: {} operators from '{}' on belong to no group", c.name,
                                       net.ops.size() - op, net.ops[op].name));
  return out;
}

DataType catalog_data_type(int dtype_bytes, const GpuLimits& limits) {
  if (dtype_bytes == 2) return data_type("fp16");
  if (limits.generation == "sm_70") return {"fp32", 4, 1.0 / 8};
  return data_type("tf32");
}

std::vector<double> kernel_model_group_times(const CatalogModel& c, const GpuSpec& gpu) {
  const DeviceRates rates = device_rates_of(gpu);
  const GpuLimits limits = gpu_limits_for(gpu.model);
  const NetworkShape net = network_shape(c.name, 1);
  const ModelLatency lat = model_latency(net, catalog_data_type(c.dtype_bytes, limits), rates, limits, rates.sms, 1.0);
  std::vector<double> out;
  for (const OpRange& r : catalog_group_ops(c, net)) {
    double s = 0;
    for (size_t i = r.first; i < r.last; ++i) s += lat.kernels[i].time_s;
    out.push_back(s);
  }
  return out;
}

std::vector<ServedModel> served_models(std::span<const std::string> names, const GpuSpec& gpu, double compute_scale) {
  const ModelCatalog& catalog = embedded_model_catalog();
  std::vector<ServedModel> out;
  for (const std::string& name : names) {
    const CatalogModel& c = catalog.at(name);
    ServedModel m;
    m.name = c.name;
    m.heaviness = model_class(c.heaviness);
    const std::vector<double> times = group_times(c, gpu);
    double total = 0;
    for (size_t i = 0; i < c.layers.size(); ++i) {
      m.layers.push_back({c.layers[i].param_bytes, times[i] * compute_scale});
      total += times[i];
    }
    m.compute_s = total * compute_scale;
    m.param_bytes = c.param_bytes();
    const int kind = catalog_gpu_kind(gpu.model);
    m.native_s = kind >= 0 ? c.native_s[static_cast<size_t>(kind)] : 0;
    m.native_footprint_bytes = c.native_footprint_bytes;
    m.slo = Time::seconds(c.slo_s);
    m.cold_start = Time::seconds(c.cold_start_s);
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace parallax

// File: sim/predict/swap_prediction.cpp
#include "sim/predict/swap_prediction.h"


#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/swap_cost.h"
#include "sim/platform/topology.h"
#include "sim/io/input_error.h"
#include "sim/policies/serverless/catalog_models.h"
#include "sim/scenario/model_catalog_reader.h"
#include "sim/scenario/scenario_loader.h"

namespace parallax {

namespace {

// Bottleneck line rate and latency of a route; nvlink_only = every hop is NVLink.
models::SwapPath route_path(Topology& topo, int src, int dst, bool& nvlink_only) {
  models::SwapPath p;
  p.bandwidth_Bps = 1e300;
  nvlink_only = true;
  const Topology::Route& r = topo.route(src, dst);
  for (uint32_t d : r.directions) {
    p.bandwidth_Bps = std::min(p.bandwidth_Bps, topo.directions()[d].bandwidth_Bps);
    nvlink_only = nvlink_only && topo.directions()[d].kind == LinkKind::nvlink;
  }
  p.latency_s = r.latency.to_seconds();
  return p;
}

}  // namespace

nlohmann::ordered_json predict_swap(const PredictSwapOptions& o) {
  const HardwareSpec hw = load_hardware_preset(o.hardware);
  const CatalogModel& m = embedded_model_catalog().at(o.model);
  if (o.gpu < 0 || o.gpu >= static_cast<int>(hw.gpus.size()))
    throw InputError({}, "gpu", fmt::format("--gpu {} is not a GPU of '{}'", o.gpu, o.hardware));
  if (o.path != "pcie" && o.path != "nvlink" && o.path != "none")
    throw InputError({}, "path", fmt::format("--path must be pcie, nvlink or none; got '{}'", o.path));
  if (o.loading != "pipelined" && o.loading != "whole")
    throw InputError({}, "loading", fmt::format("--loading must be pipelined or whole; got '{}'", o.loading));
  std::vector<ServedModel> served;
  try {
    served = served_models(std::vector<std::string>{m.name}, hw.gpus[static_cast<size_t>(o.gpu)]);
  } catch (const std::invalid_argument& e) {
    throw InputError({}, "hardware", e.what());
  }
  const std::vector<models::SwapLayer>& layers = served[0].layers;
  const int kind = catalog_gpu_kind(hw.gpus[static_cast<size_t>(o.gpu)].model);

  Topology topo(hw);
  nlohmann::ordered_json out;
  out["hardware"] = o.hardware;
  out["model"] = m.name;
  out["path"] = o.path;
  out["gpu"] = o.gpu;
  out["param_bytes"] = m.param_bytes();
  out["compute_s"] = models::resident_latency_s(layers);
  out["compute_measured"] = kind >= 0 && m.measured_s[static_cast<size_t>(kind)] > 0;
  if (o.path == "none") {
    out["latency_s"] = models::resident_latency_s(layers);
  } else {
    models::SwapPath path;
    int source = -1;
    bool nvlink = false;
    if (o.path == "pcie") {
      path = route_path(topo, topo.host_node(0), topo.gpu_node(o.gpu), nvlink);
      path.group_overhead_s = models::kHostGroupOverhead_s;
    } else {
      for (int g = 0; g < static_cast<int>(hw.gpus.size()); ++g) {  // the fastest NVLink peer
        if (g == o.gpu) continue;
        const models::SwapPath p = route_path(topo, topo.gpu_node(g), topo.gpu_node(o.gpu), nvlink);
        if (nvlink && (source < 0 || p.bandwidth_Bps > path.bandwidth_Bps)) {
          path = p;
          source = g;
        }
      }
      if (source < 0) throw InputError({}, "path", fmt::format("GPU {} of '{}' has no NVLink peer", o.gpu, o.hardware));
      path.group_overhead_s = models::kPeerGroupOverhead_s;
      out["source_gpu"] = source;
    }
    out["loading"] = o.loading;
    out["bandwidth_Bps"] = path.bandwidth_Bps;
    out["route_latency_s"] = path.latency_s;
    out["group_bytes"] = path.group_bytes;
    out["group_overhead_s"] = path.group_overhead_s;
    out["groups"] = models::swap_group_sizes(m.param_bytes(), path.group_bytes).size();
    out["latency_s"] = o.loading == "whole" ? models::whole_swap_latency_s(layers, path)
                                            : models::pipelined_swap_latency_s(layers, path);
    if (o.loading == "pipelined") out["estimate_s"] = models::pipelined_swap_estimate_s(layers, path);
  }
  return out;
}

}  // namespace parallax

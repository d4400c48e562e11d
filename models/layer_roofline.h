// File: models/layer_roofline.h
// Compute time of one layer (or layer group) from its FLOPs and the bytes it reads, where no
// measurement exists: the roofline of models/gemm_cost.h without tile quantisation, i.e. the
// large-k limit of gemm_cost (REFERENCE.md §3.1):
//   time_s = overhead_s + max(flops / (eta_compute * peak_flops), bytes / (eta_memory * hbm_Bps))
// Example: 46.5 GFLOP on a V100 in fp32 (15.7 TFLOP/s, eta 0.75): 3.95 ms + 5 us.
// A lower bound for launch-bound batch-1 CNNs (see scenarios/models/catalog.yaml `derivation`).
#pragma once

namespace parallax::models {

// Throws std::invalid_argument unless peak_flops, hbm_Bps and both efficiencies are positive.
double layer_roofline_time_s(double flops, double bytes, double peak_flops, double hbm_Bps,
                             double eta_compute, double eta_memory, double overhead_s);

}  // namespace parallax::models

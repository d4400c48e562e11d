// File: models/layer_roofline.cpp
#include "models/layer_roofline.h"

#include <algorithm>
#include <stdexcept>

namespace parallax::models {

double layer_roofline_time_s(double flops, double bytes, double peak_flops, double hbm_Bps,
                             double eta_compute, double eta_memory, double overhead_s) {
  if (!(peak_flops > 0 && hbm_Bps > 0 && eta_compute > 0 && eta_memory > 0))
    throw std::invalid_argument("layer_roofline_time_s: peak, bandwidth and efficiencies must be positive");
  return overhead_s + std::max(flops / (eta_compute * peak_flops), bytes / (eta_memory * hbm_Bps));
}

}  // namespace parallax::models

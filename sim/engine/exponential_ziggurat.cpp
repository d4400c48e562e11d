// File: sim/engine/exponential_ziggurat.cpp
#include "sim/engine/exponential_ziggurat.h"

#include <cmath>

namespace parallax {

namespace {
// For 256 layers: the base layer's right edge r and each layer's area v (Marsaglia and Tsang's
// constants, which make the top layer close at x = 0).
constexpr double kR = 7.69711747013104972;
constexpr double kV = 3.949659822581572e-3;
}  // namespace

ExponentialZiggurat::ExponentialZiggurat() {
  x_[0] = kV / std::exp(-kR);
  x_[1] = kR;
  for (int i = 1; i < kLayers - 1; ++i) x_[i + 1] = -std::log(kV / x_[i] + std::exp(-x_[i]));
  x_[kLayers] = 0;
  for (int i = 0; i <= kLayers; ++i) f_[i] = std::exp(-x_[i]);
}

double ExponentialZiggurat::outside_rectangle(RandomStream& rng, size_t layer, double x) const {
  if (layer == 0) return kR - std::log1p(-rng.uniform01());  // the tail: r + Exp(1)
  // The wedge between the rectangle and the curve: a uniform height in the layer, against e^-x.
  if (f_[layer] + rng.uniform01() * (f_[layer + 1] - f_[layer]) < std::exp(-x)) return x;
  return (*this)(rng);  // rejected (about 1 % of draws): a fresh one
}

}  // namespace parallax

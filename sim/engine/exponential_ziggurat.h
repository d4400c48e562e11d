// File: sim/engine/exponential_ziggurat.h
// Exp(1) draws by Marsaglia and Tsang's ziggurat (J. Stat. Software 5(8), 2000), for the hold
// model's workload generator (hold_model.cpp). It is exact, like the inversion -log1p(-U) that
// RandomStream::exponential uses, but about 99 % of draws cost one 64-bit draw, one table look-up,
// one multiplication and one comparison instead of a log1p: in `bench engine` the inversion was
// a quarter of the instructions, timing the generator more than the queue. The simulations keep
// RandomStream::exponential (their outputs depend on its exact sequence of draws).
//
// 256 layers of equal area v under e^-x: the base layer is [0, r) x [0, e^-r) plus the tail past
// r; layer i >= 1 is [0, x_i) x [e^-x_i, e^-x_{i+1}). A uniform point of a uniformly chosen
// layer is accepted outright when x < x_{i+1} (the rectangle lies under the curve), else it is
// checked against the curve (the wedge); the tail is r + Exp(1), by the memoryless property.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "sim/engine/random_streams.h"

namespace parallax {

class ExponentialZiggurat {
 public:
  ExponentialZiggurat();
  // One Exp(1) draw from `rng`. The rectangle's case is inline (about 99 % of draws).
  double operator()(RandomStream& rng) const {
    const uint64_t bits = rng.next_u64();
    const auto i = static_cast<size_t>(bits & 0xff);                 // the layer: the low 8 bits
    const double x = static_cast<double>(bits >> 11) * 0x1.0p-53 * x_[i];  // the top 53, independent of them
    return x < x_[i + 1] ? x : outside_rectangle(rng, i, x);
  }

 private:
  // The base layer's tail, or a layer's wedge (draws afresh when the point is rejected).
  double outside_rectangle(RandomStream& rng, size_t layer, double x) const;

  static constexpr int kLayers = 256;
  std::array<double, kLayers + 1> x_{};  // x_[0] = v / e^-r (base layer's width), x_[1] = r, x_[256] = 0
  std::array<double, kLayers + 1> f_{};  // e^-x_i (f_[0] unused: the base layer has no wedge)
};

}  // namespace parallax

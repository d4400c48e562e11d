// File: hw/calibration_summary.h
// The table `parallax hw calibrate` prints and writes to DIR/summary.txt: per family the number
// of rows and a headline figure, next to the ceilings the microbenchmarks are meant to reach
// (bf16 GEMM 789 TFLOP/s and device copy 4.3 TB/s counted as reads + writes on an H200: the
// issue's bar is >= 90% of them).
#pragma once

#include <string>
#include <vector>

#include "models/calibration_data/measurement_csv.h"

namespace parallax::hw {

inline constexpr double kH200GemmCeilingFlops = 789e12;
inline constexpr double kH200CopyCeilingBps = 4.3e12;

std::string calibration_summary(const std::vector<models::Measurement>& rows);

}  // namespace parallax::hw

// File: hw/hw_backend_none.cpp
// The backend of a build without CUDA (-Dcuda=disabled, or no nvcc with -Dcuda=auto).
#include "hw/hw_backend.h"

namespace parallax::hw {

namespace {
[[noreturn]] void absent() {
  throw HardwareUnavailable("this build has no CUDA backend (configure with -Dcuda=enabled where nvcc is installed)");
}
}  // namespace

bool backend_built() { return false; }
std::string describe_gpus() { absent(); }
DeviceFacts device_facts(int) { absent(); }
CalibrationResult run_plan(const SweepPlan&, int, const std::string&, const std::function<void(const CaseOutcome&)>&) {
  absent();
}

}  // namespace parallax::hw

// File: tests/fuzz/transfer_csv_fuzz.cpp
// Fuzzes the transfer CSV parser against a DGX-like machine: 8 GPUs, one host, one NVSwitch.
#include <cstdint>

#include "sim/scenario/node_directory.h"
#include "sim/scenario/transfer_csv.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const parallax::NodeDirectory nodes(8, 1, {{"nvswitch", parallax::NodeKind::nvswitch}});
  parallax::fuzz::expect_only_input_errors(
      [&] { (void)parallax::parse_transfers_csv(parallax::fuzz::as_text(data, size), "fuzz.csv", nodes); });
  return 0;
}

// File: tests/fuzz/chakra_et_fuzz.cpp
// Fuzzes the Chakra ET reader: the framing and protobuf parse of one ET, then the step graph of a
// set of ranks. The first byte picks the rank count (1 + byte % 4: each rank gets the same ET,
// so collectives and sends can match across ranks) and, with bit 0x80, following ctrl_deps; the
// rest is the ET.
#include <cstdint>

#include "sim/workload/chakra_reader.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const int ranks = 1 + data[0] % 4;
  const parallax::ChakraReadOptions options{.follow_ctrl_deps = (data[0] & 0x80) != 0};
  const auto et = parallax::fuzz::as_text(data + 1, size - 1);
  parallax::fuzz::expect_only_input_errors([&] {
    std::vector<parallax::ChakraRankTrace> set;
    for (int r = 0; r < ranks; ++r)
      set.push_back({"fuzz." + std::to_string(r) + ".et", parallax::parse_chakra_et(et, "fuzz.et")});
    (void)parallax::step_graph_of_chakra(set, options);
  });
  return 0;
}

// File: sim/predict/nccl_fabric.h
// What NCCL's model (models/nccl_tuning.h, a leaf that never sees sim/) is told about a hardware
// preset: the box from the ring over its GPUs, NVLS when Hopper GPUs hang off an NVSwitch, and
// HardwareSpec::fabric as a models::NcclNet:
//   nics_per_node, nic_Bps    the box's NICs, the slowest one's rate;
//   nodes_per_leaf, oversubscription   leaf/spine only (rails keep same-rank traffic on one switch);
//   hop_latency_s             the switches an inter-node hop crosses beyond the first, each
//                             switch_latency_s: NCCL's NET hwLat (nccl_latency.h) is measured
//                             NIC to NIC through one switch, and NCCL adds the transport's own
//                             latency (0 for IB) on top, so a one-switch hop adds nothing.
#pragma once

#include <vector>

#include "models/calibration_data/calibration_file.h"
#include "models/nccl_tuning.h"
#include "models/ring.h"
#include "sim/platform/hardware_spec.h"

namespace parallax {

// `ring` runs over the GPUs one box gives the group (at least its bottleneck hop matters).
models::NcclBox nccl_box(const HardwareSpec& hw, const models::RingParams& ring);
// The ring `order` (GPU ids of one box) as the machine's paths give it (sim/policies/overlap/ring_hops.h).
models::RingParams box_ring(const HardwareSpec& hw, const std::vector<int>& order);

// `box` (nodes from the preset) with the NICs, NIC rate and latencyInter a multi-node
// nccl-tests log was fitted to (`parallax fit --nccl-tests`, nccl_net_fit.h).
models::NcclBox with_calibrated_network(models::NcclBox box, const models::NetworkCalibration& network);

}  // namespace parallax

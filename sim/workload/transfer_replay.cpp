// File: sim/workload/transfer_replay.cpp
#include "sim/workload/transfer_replay.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <numeric>

namespace parallax {

namespace {
// Tags: low bit 0 = transfer, 1 = collective; the index above it. The issue timer uses ~0.
constexpr uint64_t kIssueTag = ~uint64_t{0};

bool parse_index(std::string_view s, int32_t& out) {
  if (s.empty()) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && out >= 0;
}
}  // namespace

Endpoint parse_endpoint(std::string_view name) {
  int32_t i = 0;
  if (name.starts_with("gpu") && parse_index(name.substr(3), i)) return Endpoint::gpu(i);
  if (name == "host") return Endpoint::host(0);
  if (name.starts_with("host") && parse_index(name.substr(4), i)) return Endpoint::host(i);
  throw PlatformError(fmt::format("'{}' is not an endpoint (expected gpu<N>, host<N> or host)", name));
}

CollectiveOp parse_collective_op(std::string_view op) {
  if (op == "all_reduce") return CollectiveOp::all_reduce;
  if (op == "all_gather") return CollectiveOp::all_gather;
  if (op == "reduce_scatter") return CollectiveOp::reduce_scatter;
  throw PlatformError(fmt::format("unknown collective '{}' (all_reduce, all_gather, reduce_scatter)", op));
}

TransferReplay::TransferReplay(Platform& platform, const TransferWorkloadSpec& spec)
    : platform_(platform), spec_(spec) {
  for (uint32_t i = 0; i < spec_.transfers.size(); ++i) {
    const TransferSpec& t = spec_.transfers[i];
    src_.push_back(parse_endpoint(t.src));
    dst_.push_back(parse_endpoint(t.dst));
    order_.push_back({t.start, i, false});
  }
  for (uint32_t i = 0; i < spec_.collectives.size(); ++i) {
    const CollectiveSpec& c = spec_.collectives[i];
    std::vector<GpuId> g(c.group.begin(), c.group.end());
    if (g.empty()) {  // "all"
      g.resize(platform_.gpu_count());
      std::iota(g.begin(), g.end(), 0);
    }
    parse_collective_op(c.op);
    groups_.push_back(std::move(g));
    order_.push_back({c.start, i, true});
  }
  std::stable_sort(order_.begin(), order_.end(), [](const Item& a, const Item& b) { return a.at < b.at; });
  transfers_.resize(spec_.transfers.size());
  collectives_.resize(spec_.collectives.size());
  total_ = order_.size();
}

void TransferReplay::start() {
  if (!order_.empty()) platform_.call_at(std::max(order_.front().at, platform_.now()), *this, kIssueTag);
}

void TransferReplay::issue_due() {
  const Time now = platform_.now();
  while (next_ < order_.size() && order_[next_].at <= now) {
    const Item& it = order_[next_++];
    if (!it.is_collective) {
      const TransferSpec& t = spec_.transfers[it.index];
      transfers_[it.index].start = now;
      platform_.copy(src_[it.index], dst_[it.index], Bytes(t.bytes), *this, uint64_t{it.index} << 1, t.name);
    } else {
      const CollectiveSpec& c = spec_.collectives[it.index];
      CollectiveOutcome& out = collectives_[it.index];
      out.name = c.name.empty() ? c.op : c.name;
      out.op = parse_collective_op(c.op);
      out.gpus = static_cast<int>(groups_[it.index].size());
      out.bytes = c.bytes;
      out.start = now;
      platform_.collective(out.op, groups_[it.index], Bytes(c.bytes), CollectiveAlgo::ring, *this,
                           (uint64_t{it.index} << 1) | 1, out.name);
    }
  }
  if (next_ < order_.size()) platform_.call_at(order_[next_].at, *this, kIssueTag);
}

void TransferReplay::on_complete(uint64_t tag) {
  if (tag == kIssueTag) {
    issue_due();
    return;
  }
  const size_t index = static_cast<size_t>(tag >> 1);
  if (tag & 1) collectives_[index].finish = platform_.now();
  else transfers_[index].finish = platform_.now();
  ++done_;
}

}  // namespace parallax

// File: sim/scenario/transfer_replay.cpp
#include "sim/scenario/transfer_replay.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <numeric>

namespace parallax {

namespace {
// Tags: low bit 0 = transfer, 1 = collective; the index above it. The issue timer uses ~0.
constexpr uint64_t kIssueTag = ~uint64_t{0};

bool parse_node_index(std::string_view s, int32_t& out) {
  if (s.empty()) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && out >= 0;
}
}  // namespace

Endpoint parse_endpoint(std::string_view name) {
  int32_t i = 0;
  if (name.starts_with("gpu") && parse_node_index(name.substr(3), i)) return Endpoint::gpu(i);
  if (name == "host") return Endpoint::host(0);
  if (name.starts_with("host") && parse_node_index(name.substr(4), i)) return Endpoint::host(i);
  throw PlatformError(fmt::format("'{}' is not an endpoint (expected gpu<N>, host<N> or host)", name));
}

CollectiveOp parse_collective_op(std::string_view op) {
  if (const auto o = collective_op_named(op)) return *o;
  throw PlatformError(fmt::format(
      "unknown collective '{}' (all_reduce, all_gather, reduce_scatter, all_to_all, broadcast, reduce, send_recv)", op));
}

CollectiveAlgo parse_collective_algo(std::string_view algo) {
  if (const auto a = collective_algo_named(algo)) return *a;
  throw PlatformError(fmt::format("unknown collective algorithm '{}' (ring, tree, p2p, hierarchical)", algo));
}

TransferReplay::TransferReplay(Platform& platform, const TransferWorkloadSpec& spec, TransferCsvStream& csv)
    : platform_(platform), spec_(spec), csv_(csv) {
  for (uint32_t i = 0; i < spec_.transfers.size(); ++i) {
    const TransferSpec& t = spec_.transfers[i];
    parse_endpoint(t.src);  // fail before anything runs
    parse_endpoint(t.dst);
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
    parse_collective_algo(c.algo);
    groups_.push_back(std::move(g));
    order_.push_back({c.start, i, true});
  }
  std::stable_sort(order_.begin(), order_.end(), [](const Item& a, const Item& b) { return a.at < b.at; });
  collectives_.resize(spec_.collectives.size());
  total_ = order_.size() + spec_.csv_rows;
}

// The first items are issued from an event at their time (or now), like every later batch.
void TransferReplay::start() {
  const TransferCsvStream::Held* row = csv_.peek();
  if (!row && order_.empty()) return;
  Time first = Time::max();
  if (row) first = row->start;
  if (!order_.empty()) first = std::min(first, order_.front().at);
  platform_.call_at(std::max(first, platform_.now()), *this, kIssueTag);
}

void TransferReplay::issue_transfer(const TransferSpec& t) {
  uint32_t slot;
  if (free_slots_.empty()) {
    slot = static_cast<uint32_t>(issued_.size());
    issued_.push_back(platform_.now());
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
    issued_[slot] = platform_.now();
  }
  platform_.copy(parse_endpoint(t.src), parse_endpoint(t.dst), Bytes(t.bytes), *this, uint64_t{slot} << 1, t.name);
}

// Merges the inline items and the CSV rows by (time, transfers before collectives, index); CSV
// rows come after the inline transfers, so at one time an inline transfer goes first.
void TransferReplay::issue_due() {
  const Time now = platform_.now();
  while (true) {
    const TransferCsvStream::Held* row = csv_.peek();
    const Item* item = next_ < order_.size() ? &order_[next_] : nullptr;
    if (!row && !item) return;
    const bool take_row = row && (!item || row->start < item->at || (row->start == item->at && item->is_collective));
    const Time at = take_row ? row->start : item->at;
    if (at > now) {
      platform_.call_at(at, *this, kIssueTag);
      return;
    }
    if (take_row) {
      const CsvTransfer t = csv_.take();
      issue_transfer(t.spec);
      continue;
    }
    ++next_;
    if (!item->is_collective) {
      issue_transfer(spec_.transfers[item->index]);
      continue;
    }
    const CollectiveSpec& c = spec_.collectives[item->index];
    CollectiveOutcome& out = collectives_[item->index];
    out.name = c.name.empty() ? c.op : c.name;
    out.op = parse_collective_op(c.op);
    out.gpus = static_cast<int>(groups_[item->index].size());
    out.bytes = c.bytes;
    out.start = now;
    platform_.collective(out.op, groups_[item->index], Bytes(c.bytes), parse_collective_algo(c.algo), *this,
                         (uint64_t{item->index} << 1) | 1, out.name);
  }
}

void TransferReplay::on_complete(uint64_t tag) {
  if (tag == kIssueTag) {
    issue_due();
    return;
  }
  const Time now = platform_.now();
  const uint64_t index = tag >> 1;
  if (tag & 1) {
    collectives_[static_cast<size_t>(index)].finish = now;
  } else {
    ++totals_.count;
    totals_.sum_finish_ps += now.ps();
    totals_.sum_duration_ps += (now - issued_[static_cast<size_t>(index)]).ps();
    free_slots_.push_back(static_cast<uint32_t>(index));
  }
  ++done_;
}

}  // namespace parallax

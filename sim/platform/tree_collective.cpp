// File: sim/platform/tree_collective.cpp
#include "sim/platform/tree_collective.h"

#include <algorithm>

#include "sim/platform/sim_platform.h"

namespace parallax {

namespace {
constexpr int64_t kTreeChunkBytes = 512 * 1024;
constexpr int kMaxTreeChunks = 64;
}  // namespace

int TreeCollective::chunk_count(Bytes bytes) {
  const int64_t c = (bytes.count() + kTreeChunkBytes - 1) / kTreeChunkBytes;
  return static_cast<int>(std::clamp<int64_t>(c, 1, kMaxTreeChunks));
}

std::vector<int> TreeCollective::chain(size_t ranks) {
  std::vector<int> parent(ranks);
  for (size_t r = 0; r < ranks; ++r) parent[r] = static_cast<int>(r) - 1;
  return parent;
}

std::vector<int> TreeCollective::nccl_tree(const std::vector<GpuId>& group, int box_gpus) {
  std::vector<int> parent(group.size(), -1);
  std::vector<int> node_of_leader, leaders;  // leaders in order of appearance
  std::vector<int> last_of_node;              // per leader index: the node's last member so far
  for (size_t r = 0; r < group.size(); ++r) {
    const int node = group[r] / std::max(1, box_gpus);
    const auto it = std::find(node_of_leader.begin(), node_of_leader.end(), node);
    if (it == node_of_leader.end()) {
      const int j = static_cast<int>(leaders.size());
      node_of_leader.push_back(node);
      leaders.push_back(static_cast<int>(r));
      last_of_node.push_back(static_cast<int>(r));
      parent[r] = j == 0 ? -1 : leaders[static_cast<size_t>((j - 1) / 2)];
    } else {
      const size_t j = static_cast<size_t>(it - node_of_leader.begin());
      parent[r] = last_of_node[j];
      last_of_node[j] = static_cast<int>(r);
    }
  }
  return parent;
}

TreeCollective::TreeCollective(SimPlatform& platform, CollectiveOp op, std::vector<GpuId> group, Bytes bytes,
                               std::vector<int> parent, CompletionListener& listener, uint64_t tag, ActivityId id)
    : FlowCollective(platform, op, std::move(group), bytes, listener, tag, id), parent_(std::move(parent)) {
  const size_t p = group_.size();
  children_.resize(p);
  for (size_t r = 0; r < p; ++r) {
    if (parent_[r] < 0) root_ = static_cast<int>(r);
    else children_[static_cast<size_t>(parent_[r])].push_back(static_cast<int>(r));
  }
  chunks_ = chunk_count(bytes_);
  chunk_bytes_ = static_cast<double>(bytes_.count() / chunks_);
  up_done_.assign(p, 0);
  down_done_.assign(p, 0);
  up_busy_.assign(p, 0);
  down_busy_.assign(p, 0);
  edges_left_ = (p - 1) * ((up() ? 1 : 0) + (down() ? 1 : 0));
}

void TreeCollective::start() {
  if (edges_left_ == 0) {
    finish();
    return;
  }
  for (size_t r = 0; r < group_.size(); ++r) {
    if (up()) try_up(static_cast<int>(r));
    else try_down(static_cast<int>(r));
  }
}

bool TreeCollective::has_chunk(int rank, int c) const {
  if (rank != root_) return down_done_[static_cast<size_t>(rank)] > c;
  if (!up()) return true;  // broadcast: the root holds the data
  for (int ch : children_[static_cast<size_t>(rank)])
    if (up_done_[static_cast<size_t>(ch)] <= c) return false;
  return true;
}

void TreeCollective::try_up(int r) {
  const size_t i = static_cast<size_t>(r);
  if (!up() || r == root_ || up_busy_[i] || up_done_[i] >= chunks_) return;
  const int c = up_done_[i];
  for (int ch : children_[i])
    if (up_done_[static_cast<size_t>(ch)] <= c) return;
  up_busy_[i] = 1;
  issue(group_[i], group_[static_cast<size_t>(parent_[i])], chunk_bytes_, i);
}

void TreeCollective::try_down(int r) {
  const size_t i = static_cast<size_t>(r);
  if (!down() || r == root_ || down_busy_[i] || down_done_[i] >= chunks_) return;
  if (!has_chunk(parent_[i], down_done_[i])) return;
  down_busy_[i] = 1;
  issue(group_[static_cast<size_t>(parent_[i])], group_[i], chunk_bytes_, group_.size() + i);
}

void TreeCollective::on_complete(uint64_t edge) {
  const size_t p = group_.size();
  if (edge < p) {
    const int r = static_cast<int>(edge);
    up_busy_[edge] = 0;
    if (++up_done_[edge] == chunks_) --edges_left_;
    const int par = parent_[edge];
    try_up(r);
    try_up(par);
    if (par == root_)
      for (int ch : children_[static_cast<size_t>(root_)]) try_down(ch);
  } else {
    const size_t i = edge - p;
    down_busy_[i] = 0;
    if (++down_done_[i] == chunks_) --edges_left_;
    try_down(static_cast<int>(i));
    for (int ch : children_[i]) try_down(ch);
  }
  if (edges_left_ == 0) finish();  // destroys *this
}

}  // namespace parallax

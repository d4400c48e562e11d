// File: models/validation/vidur_data.cpp
// Minimal header-keyed CSV reading for the vidur copies (plain numbers, no quoting).
#include "models/validation/vidur_data.h"

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

namespace parallax::models {
namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, ',')) out.push_back(cell);
  return out;
}

// Rows as column-name → text.
std::vector<std::map<std::string, std::string>> read_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot open", path));
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error(fmt::format("{}: empty file", path));
  const std::vector<std::string> header = split(line);
  std::vector<std::map<std::string, std::string>> rows;
  int line_no = 1;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    const std::vector<std::string> cells = split(line);
    if (cells.size() != header.size()) {
      throw std::runtime_error(fmt::format("{}:{}: {} cells, header has {}", path, line_no,
                                           cells.size(), header.size()));
    }
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < header.size(); ++i) row[header[i]] = cells[i];
    rows.push_back(std::move(row));
  }
  return rows;
}

const std::string& field(const std::map<std::string, std::string>& row, const std::string& key,
                         const std::string& path) {
  auto it = row.find(key);
  if (it == row.end()) throw std::runtime_error(fmt::format("{}: no column '{}'", path, key));
  return it->second;
}

}  // namespace

GemmShape llama_operator_shape(const std::string& op, int64_t tokens, int64_t tp, int64_t hidden,
                               int64_t intermediate) {
  if (op == "attn_pre_proj") return {tokens, 3 * hidden / tp, hidden, 2};
  if (op == "attn_post_proj") return {tokens, hidden, hidden / tp, 2};
  if (op == "mlp_up_proj") return {tokens, 2 * intermediate / tp, hidden, 2};
  if (op == "mlp_down_proj") return {tokens, hidden, intermediate / tp, 2};
  throw std::invalid_argument(fmt::format("llama_operator_shape: unknown operator '{}'", op));
}

std::vector<VidurGemmRow> read_vidur_gemm_csv(const std::string& path) {
  static const char* const kOps[] = {"attn_pre_proj", "attn_post_proj", "mlp_up_proj",
                                     "mlp_down_proj"};
  std::vector<VidurGemmRow> out;
  for (const auto& row : read_csv(path)) {
    const int64_t tokens = std::stoll(field(row, "num_tokens", path));
    const int64_t tp = std::stoll(field(row, "num_tensor_parallel_workers", path));
    const int64_t hidden = std::stoll(field(row, "n_embd", path));
    const int64_t intermediate = std::stoll(field(row, "n_expanded_embd", path));
    for (const char* op : kOps) {
      VidurGemmRow r;
      r.op = op;
      r.tokens = tokens;
      r.tp = tp;
      r.shape = llama_operator_shape(op, tokens, tp, hidden, intermediate);
      r.measured_s = std::stod(field(row, fmt::format("{}_median_ms", op), path)) * 1e-3;
      out.push_back(r);
    }
  }
  return out;
}

std::vector<VidurAllReduceRow> read_vidur_all_reduce_csv(const std::string& path) {
  std::vector<VidurAllReduceRow> out;
  for (const auto& row : read_csv(path)) {
    VidurAllReduceRow r;
    r.ranks = std::stoll(field(row, "num_workers", path));
    r.devices_per_node = std::stoll(field(row, "devices_per_node", path));
    r.bytes = std::stod(field(row, "size_bytes", path));
    r.median_s = std::stod(field(row, "median_ms", path)) * 1e-3;
    out.push_back(r);
  }
  return out;
}

std::string source_dir() {
  const char* dir = std::getenv("PARALLAX_SOURCE_DIR");
  return dir != nullptr ? std::string(dir) : std::string(".");
}

}  // namespace parallax::models

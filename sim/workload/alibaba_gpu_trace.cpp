// File: sim/workload/alibaba_gpu_trace.cpp
#include "sim/workload/alibaba_gpu_trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>

#include "sim/workload/csv_reader.h"

namespace parallax {

namespace {

constexpr std::array<std::string_view, 11> kPodColumns{"name",     "cpu_milli",     "memory_mib",    "num_gpu",
                                                       "gpu_milli", "gpu_spec",     "qos",           "pod_phase",
                                                       "creation_time", "deletion_time", "scheduled_time"};
constexpr size_t kPodColumnsWithoutTimes = 5;
constexpr std::array<std::string_view, 5> kNodeColumns{"sn", "cpu_milli", "memory_mib", "gpu", "model"};

// Upper bounds that keep every later sum far from overflow; far above any real machine.
constexpr uint64_t kMaxGpusPerRow = 1024;
constexpr uint64_t kMaxCpuMilli = uint64_t{1} << 40;
constexpr uint64_t kMaxMemoryMib = uint64_t{1} << 40;
constexpr uint64_t kMaxSeconds = uint64_t{1} << 50;

uint64_t parse_bounded(const CsvReader& csv, size_t i, uint64_t max) {
  const uint64_t v = csv.parse_uint(i);
  if (v > max) throw csv.column_error(i, fmt::format("{} is larger than {}", v, max));
  return v;
}

std::string_view parse_choice(const CsvReader& csv, size_t i, std::initializer_list<std::string_view> choices) {
  const std::string_view v = csv.field(i);
  if (std::find(choices.begin(), choices.end(), v) == choices.end()) {
    std::string list;
    for (std::string_view c : choices) list += (list.empty() ? "" : ", ") + std::string(c);
    throw csv.column_error(i, fmt::format("'{}' is not one of {}", v, list));
  }
  return v;
}

std::vector<std::string> parse_gpu_spec(const CsvReader& csv, size_t i) {
  std::vector<std::string> out;
  const std::string_view v = csv.field(i);
  if (v.empty()) return out;
  size_t begin = 0;
  while (true) {
    const size_t bar = v.find('|', begin);
    const std::string_view model = v.substr(begin, bar == std::string_view::npos ? std::string_view::npos : bar - begin);
    if (model.empty()) throw csv.column_error(i, fmt::format("empty GPU model in '{}'", v));
    out.emplace_back(model);
    if (bar == std::string_view::npos) return out;
    begin = bar + 1;
  }
}

}  // namespace

std::vector<AlibabaPod> read_alibaba_pods(const std::string& path) {
  std::ifstream in = open_trace_file(path);
  return read_alibaba_pods(in, path);
}

std::vector<AlibabaPod> read_alibaba_pods(std::istream& in, const std::string& source) {
  CsvReader csv(in, source);
  const std::string full = "name,cpu_milli,memory_mib,num_gpu,gpu_milli[,gpu_spec,qos,pod_phase,creation_time,"
                           "deletion_time,scheduled_time]";
  csv.read_header(full);
  const size_t columns = csv.header().size();
  if (columns != kPodColumnsWithoutTimes && columns != kPodColumns.size())
    throw csv.error("", fmt::format("header has {} columns, expected {} or {}: {}", columns, kPodColumnsWithoutTimes,
                                    kPodColumns.size(), full));
  for (size_t i = 0; i < columns; ++i) csv.require_header_name(i, kPodColumns[i]);
  const bool times = columns == kPodColumns.size();

  std::vector<AlibabaPod> pods;
  while (csv.next_row()) {
    csv.require_field_count(columns);
    AlibabaPod p;
    p.line = csv.line();
    p.name = csv.parse_nonempty(0);
    p.cpu_milli = parse_bounded(csv, 1, kMaxCpuMilli);
    p.memory_mib = parse_bounded(csv, 2, kMaxMemoryMib);
    p.num_gpu = static_cast<int>(parse_bounded(csv, 3, kMaxGpusPerRow));
    p.gpu_milli = static_cast<int>(parse_bounded(csv, 4, 1000));
    if (p.num_gpu == 0 && p.gpu_milli != 0)
      throw csv.column_error(4, fmt::format("gpu_milli {} on a pod with num_gpu 0", p.gpu_milli));
    if (p.num_gpu == 1 && p.gpu_milli == 0) throw csv.column_error(4, "gpu_milli 0 on a pod with num_gpu 1");
    if (p.num_gpu > 1 && p.gpu_milli != 1000)
      throw csv.column_error(4, fmt::format("gpu_milli {} on a pod with num_gpu {}: multi-GPU pods take whole GPUs "
                                            "(1000)", p.gpu_milli, p.num_gpu));
    if (times) {
      p.has_times = true;
      p.gpu_spec = parse_gpu_spec(csv, 5);
      p.qos = parse_choice(csv, 6, {"LS", "BE", "Burstable", "Guaranteed"});
      p.pod_phase = parse_choice(csv, 7, {"Running", "Succeeded", "Failed", "Pending"});
      p.creation_s = static_cast<int64_t>(parse_bounded(csv, 8, kMaxSeconds));
      p.deletion_s = static_cast<int64_t>(parse_bounded(csv, 9, kMaxSeconds));
      if (p.deletion_s < p.creation_s)
        throw csv.column_error(9, fmt::format("deletion_time {} is before creation_time {}", p.deletion_s, p.creation_s));
      if (!csv.field(10).empty() && static_cast<int64_t>(parse_bounded(csv, 10, kMaxSeconds)) < p.creation_s)
        throw csv.column_error(10, fmt::format("scheduled_time {} is before creation_time {}", csv.field(10),
                                               p.creation_s));
    }
    pods.push_back(std::move(p));
  }
  if (pods.empty()) throw csv.error("", "no data rows after the header");
  return pods;
}

std::vector<AlibabaNode> read_alibaba_nodes(const std::string& path) {
  std::ifstream in = open_trace_file(path);
  return read_alibaba_nodes(in, path);
}

std::vector<AlibabaNode> read_alibaba_nodes(std::istream& in, const std::string& source) {
  CsvReader csv(in, source);
  csv.read_header("sn,cpu_milli,memory_mib,gpu,model");
  if (csv.header().size() != kNodeColumns.size())
    throw csv.error("", fmt::format("header has {} columns, expected 5: sn,cpu_milli,memory_mib,gpu,model",
                                    csv.header().size()));
  for (size_t i = 0; i < kNodeColumns.size(); ++i) csv.require_header_name(i, kNodeColumns[i]);

  std::vector<AlibabaNode> nodes;
  while (csv.next_row()) {
    csv.require_field_count(kNodeColumns.size());
    AlibabaNode n;
    n.line = csv.line();
    n.sn = csv.parse_nonempty(0);
    n.cpu_milli = parse_bounded(csv, 1, kMaxCpuMilli);
    n.memory_mib = parse_bounded(csv, 2, kMaxMemoryMib);
    n.gpus = static_cast<int>(parse_bounded(csv, 3, kMaxGpusPerRow));
    n.model = csv.field(4);
    if (n.gpus == 0 && !n.model.empty())
      throw csv.column_error(4, fmt::format("model '{}' on a node without GPUs", n.model));
    if (n.gpus > 0 && n.model.empty()) throw csv.column_error(4, "empty model on a node with GPUs");
    nodes.push_back(std::move(n));
  }
  if (nodes.empty()) throw csv.error("", "no data rows after the header");
  return nodes;
}

}  // namespace parallax

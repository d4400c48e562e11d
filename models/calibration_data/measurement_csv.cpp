// File: models/calibration_data/measurement_csv.cpp
#include "models/calibration_data/measurement_csv.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "models/calibration_data/data_error.h"
#include "sim/io/input_file.h"

namespace parallax::models {

namespace {

constexpr std::string_view kHeader =
    "family,case,config,value,unit,reps,stdev,gpu_name,sm_count,driver,cuda,sm_clock_mhz,"
    "mem_clock_mhz,date,git_commit";
constexpr size_t kColumns = 15;

constexpr std::array<std::string_view, 11> kFamilyNames{"gemm",       "copy",        "launch",   "corun",
                                                        "swap",       "interdecom",  "intrafusion", "colocate",
                                                        "serverless", "multiplex",   "sm_scaling"};

// What a config value must look like.
enum class Kind {
  text,       // any non-empty text
  positive,   // integer >= 1
  dimension,  // a GEMM dimension: integer in [1, 2^31 - 1], cuBLAS's int (tile counts stay in int64)
  count,      // integer >= 0
  amount,     // finite number >= 0
  sms,        // integer >= 1 or "all"
  dtype,      // bf16 | fp16
  copy_kind,  // h2d | d2h | d2d | p2p
  host_mem,   // pinned | pageable | none
  launch_what // launch | sync | event_record
};

struct KeySpec {
  std::string_view key;
  Kind kind;
};

std::vector<KeySpec> key_specs(MeasurementFamily f) {
  using K = Kind;
  switch (f) {
    case MeasurementFamily::gemm:
      return {{"dtype", K::dtype}, {"m", K::dimension}, {"n", K::dimension}, {"k", K::dimension}};
    case MeasurementFamily::copy:
      return {{"kind", K::copy_kind}, {"host_memory", K::host_mem}, {"bytes", K::positive}};
    case MeasurementFamily::launch:
      return {{"what", K::launch_what}, {"kernels", K::positive}};
    case MeasurementFamily::corun:
      return {{"kernel", K::text}, {"flops", K::amount}, {"dram_bytes", K::amount},
              {"blocks", K::positive}, {"with", K::text}, {"with_flops", K::amount},
              {"with_dram_bytes", K::amount}, {"with_blocks", K::count}, {"sms", K::sms},
              {"with_sms", K::sms}};
    case MeasurementFamily::swap:
      return {{"model", K::text}, {"model_bytes", K::amount}, {"layers", K::positive},
              {"group_bytes", K::amount}, {"path", K::text}};
    case MeasurementFamily::interdecom:
      return {{"dtype", K::dtype}, {"m", K::dimension}, {"n", K::dimension}, {"k", K::dimension},
              {"d", K::positive}, {"copy_sms", K::count}, {"copy_bytes", K::amount}};
    case MeasurementFamily::intrafusion:
      return {{"dtype", K::dtype}, {"m", K::dimension}, {"n", K::dimension}, {"k", K::dimension},
              {"stolen_sms", K::count}, {"copy_bytes", K::amount}};
    case MeasurementFamily::colocate:
    case MeasurementFamily::serverless:
    case MeasurementFamily::multiplex:
      return {{"policy", K::text}, {"metric", K::text}};
    case MeasurementFamily::sm_scaling:
      return {{"kernel", K::text}, {"sms", K::positive}, {"flops", K::amount}, {"dram_bytes", K::amount}};
  }
  return {};
}

// Families whose rows may carry further (scenario) keys besides the required ones.
bool open_keys(MeasurementFamily f) {
  return f == MeasurementFamily::colocate || f == MeasurementFamily::serverless || f == MeasurementFamily::multiplex ||
         f == MeasurementFamily::interdecom || f == MeasurementFamily::intrafusion;
}

std::optional<double> parse_number(std::string_view s) {
  if (s.empty()) return std::nullopt;
  if (s.front() == '+') s.remove_prefix(1);
  double v = 0.0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<long long> parse_integer(std::string_view s) {
  if (s.empty()) return std::nullopt;
  long long v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// Empty string when `value` fits `kind`, else what was expected.
std::string check_kind(Kind kind, std::string_view value) {
  switch (kind) {
    case Kind::text:
      return value.empty() ? "a non-empty name" : "";
    case Kind::positive: {
      const auto v = parse_integer(value);
      return v && *v >= 1 ? "" : "an integer >= 1";
    }
    case Kind::dimension: {
      const auto v = parse_integer(value);
      return v && *v >= 1 && *v <= 2147483647 ? "" : "an integer from 1 to 2147483647 (a GEMM dimension, cuBLAS's int)";
    }
    case Kind::count: {
      const auto v = parse_integer(value);
      return v && *v >= 0 ? "" : "an integer >= 0";
    }
    case Kind::amount: {
      const auto v = parse_number(value);
      return v && *v >= 0.0 ? "" : "a finite number >= 0";
    }
    case Kind::sms: {
      if (value == "all") return "";
      const auto v = parse_integer(value);
      return v && *v >= 1 ? "" : "an integer >= 1 or 'all'";
    }
    case Kind::dtype:
      return value == "bf16" || value == "fp16" ? "" : "bf16 or fp16";
    case Kind::copy_kind:
      return value == "h2d" || value == "d2h" || value == "d2d" || value == "p2p" ? ""
                                                                                  : "h2d, d2h, d2d or p2p";
    case Kind::host_mem:
      return value == "pinned" || value == "pageable" || value == "none" ? ""
                                                                          : "pinned, pageable or none";
    case Kind::launch_what:
      return value == "launch" || value == "sync" || value == "event_record"
                 ? ""
                 : "launch, sync or event_record";
  }
  return "";
}

// Checks a row's config against its family; "" when fine, else the problem.
std::string check_config(const Measurement& m) {
  const std::vector<KeySpec> specs = key_specs(m.family);
  std::map<std::string_view, int> seen;
  for (const auto& [key, value] : m.config) {
    if (++seen[key] > 1) return fmt::format("config key '{}' appears twice", key);
  }
  for (const KeySpec& spec : specs) {
    const auto it = std::find_if(m.config.begin(), m.config.end(),
                                 [&](const auto& kv) { return kv.first == spec.key; });
    if (it == m.config.end())
      return fmt::format("{} row lacks config key '{}'", to_string(m.family), spec.key);
    const std::string expected = check_kind(spec.kind, it->second);
    if (!expected.empty())
      return fmt::format("config {}={}: expected {}", spec.key, it->second, expected);
  }
  if (!open_keys(m.family)) {
    for (const auto& entry : m.config) {
      const auto& key = entry.first;  // not a structured binding: clang 14 (the fuzz build) cannot capture one
      const bool known = std::any_of(specs.begin(), specs.end(),
                                     [&](const KeySpec& s) { return s.key == key; });
      if (!known) {
        std::string allowed;
        for (const KeySpec& s : specs) allowed += (allowed.empty() ? "" : ", ") + std::string(s.key);
        return fmt::format("unknown config key '{}' for {} (keys: {})", key, to_string(m.family),
                           allowed);
      }
    }
  }
  return "";
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t at = s.find(sep, start);
    parts.push_back(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) break;
    start = at + 1;
  }
  return parts;
}

class RowReader {
 public:
  explicit RowReader(const std::string& path) : path_(path) {}

  [[noreturn]] void fail(int line, const std::string& message) const {
    throw DataError(path_, line, message);
  }

  Measurement row(int line, std::string_view text) {
    if (text.find('"') != std::string_view::npos)
      fail(line, "quoted fields are not part of the measurement CSV (no field holds a comma)");
    if (text.find('\r') != std::string_view::npos) fail(line, "stray carriage return inside the line");
    const std::vector<std::string_view> f = split(text, ',');
    if (f.size() != kColumns)
      fail(line, fmt::format("expected {} fields, found {}", kColumns, f.size()));
    Measurement m;
    m.file = path_;
    m.line = line;
    const auto family = parse_measurement_family(f[0]);
    if (!family) fail(line, fmt::format("unknown family '{}' (one of: {})", f[0], fmt::join(kFamilyNames, ", ")));
    m.family = *family;
    if (f[1].empty()) fail(line, "empty case");
    m.case_id = std::string(f[1]);
    if (!f[2].empty()) {
      for (std::string_view pair : split(f[2], ';')) {
        const size_t eq = pair.find('=');
        if (eq == std::string_view::npos || eq == 0)
          fail(line, fmt::format("config entry '{}' is not key=value", pair));
        m.config.emplace_back(std::string(pair.substr(0, eq)), std::string(pair.substr(eq + 1)));
      }
    }
    const std::string problem = check_config(m);
    if (!problem.empty()) fail(line, problem);
    m.value = number(line, "value", f[3]);
    if (f[4].empty()) fail(line, "empty unit");
    m.unit = std::string(f[4]);
    if (m.unit == "s" && !(m.value > 0.0)) fail(line, fmt::format("a time must be > 0 s, got {}", f[3]));
    // The longest a scenario may simulate (sim/scenario/input_limits.h; models/ cannot include it):
    // a longer "measurement" would fit figures that take the clock out of its range.
    if (m.unit == "s" && m.value > 1e6) fail(line, fmt::format("a time must be at most 1e6 s, got {}", f[3]));
    const auto reps = parse_integer(f[5]);
    if (!reps || *reps < 1 || *reps > 1'000'000'000)
      fail(line, fmt::format("reps must be an integer >= 1, got '{}'", f[5]));
    m.reps = static_cast<int>(*reps);
    m.stdev = number(line, "stdev", f[6]);
    if (m.stdev < 0.0) fail(line, "stdev must be >= 0");
    MeasurementProvenance& p = m.provenance;
    if (f[7].empty()) fail(line, "empty gpu_name");
    p.gpu_name = std::string(f[7]);
    const auto sms = parse_integer(f[8]);
    if (!sms || *sms < 1 || *sms > 100000) fail(line, fmt::format("sm_count must be an integer >= 1, got '{}'", f[8]));
    p.sm_count = static_cast<int>(*sms);
    p.driver = std::string(f[9]);
    p.cuda = std::string(f[10]);
    p.sm_clock_mhz = optional_number(line, "sm_clock_mhz", f[11]);
    p.mem_clock_mhz = optional_number(line, "mem_clock_mhz", f[12]);
    p.date = std::string(f[13]);
    p.git_commit = std::string(f[14]);
    const auto [it, inserted] = first_line_of_case_.emplace(m.case_id, line);
    if (!inserted) fail(line, fmt::format("case '{}' already appeared on line {}", m.case_id, it->second));
    return m;
  }

 private:
  double number(int line, std::string_view column, std::string_view text) const {
    const auto v = parse_number(text);
    if (!v) fail(line, fmt::format("{} must be a finite number, got '{}'", column, text));
    return *v;
  }
  std::optional<double> optional_number(int line, std::string_view column, std::string_view text) const {
    if (text.empty()) return std::nullopt;
    const double v = number(line, column, text);
    if (v < 0.0) fail(line, fmt::format("{} must be >= 0", column));
    return v;
  }

  std::string path_;
  std::map<std::string, int> first_line_of_case_;
};

void check_writable(std::string_view what, std::string_view field, std::string_view forbidden) {
  if (field.find_first_of(forbidden) != std::string_view::npos)
    throw std::invalid_argument(fmt::format("measurement CSV: {} '{}' holds one of the characters "
                                            "the format reserves", what, field));
}

std::string format_number(double v) { return fmt::format("{}", v); }  // shortest round-trip form

}  // namespace

std::string_view to_string(MeasurementFamily family) {
  return kFamilyNames[static_cast<size_t>(family)];
}

std::optional<MeasurementFamily> parse_measurement_family(std::string_view name) {
  for (size_t i = 0; i < kFamilyNames.size(); ++i)
    if (kFamilyNames[i] == name) return static_cast<MeasurementFamily>(i);
  return std::nullopt;
}

std::vector<std::string_view> required_config_keys(MeasurementFamily family) {
  std::vector<std::string_view> keys;
  for (const KeySpec& s : key_specs(family)) keys.push_back(s.key);
  return keys;
}

bool Measurement::has(std::string_view key) const {
  return std::any_of(config.begin(), config.end(), [&](const auto& kv) { return kv.first == key; });
}

const std::string& Measurement::text(std::string_view key) const {
  for (const auto& [k, v] : config)
    if (k == key) return v;
  throw DataError(file, line, fmt::format("case '{}' has no config key '{}'", case_id, key));
}

double Measurement::number(std::string_view key) const {
  const std::string& t = text(key);
  const auto v = parse_number(t);
  if (!v) throw DataError(file, line, fmt::format("config {}={} is not a number", key, t));
  return *v;
}

bool Measurement::operator==(const Measurement& o) const {
  return family == o.family && case_id == o.case_id && config == o.config && value == o.value &&
         unit == o.unit && reps == o.reps && stdev == o.stdev && provenance == o.provenance;
}

std::string_view measurement_csv_header() { return kHeader; }

std::vector<Measurement> parse_measurements_csv(std::string_view text, const std::string& path) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  RowReader reader(path);
  std::vector<Measurement> rows;
  bool header_seen = false;
  int line_no = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    if (!header_seen) {
      if (line != kHeader)
        reader.fail(line_no, fmt::format("the header must be exactly '{}'", kHeader));
      header_seen = true;
      continue;
    }
    rows.push_back(reader.row(line_no, line));
  }
  if (!header_seen) throw DataError(path, 1, "empty file: no header line");
  return rows;
}

std::vector<Measurement> read_measurements_csv(const std::string& path) {
  std::string text;
  try {
    text = read_input_file(path);
  } catch (const InputFileError& e) {
    throw DataError(path, 0, e.reason());
  }
  return parse_measurements_csv(text, path);
}

std::string format_measurements_csv(const std::vector<Measurement>& rows) {
  std::string out(kHeader);
  out += '\n';
  constexpr std::string_view kReserved = ",\"\r\n";
  for (const Measurement& m : rows) {
    std::string config;
    for (const auto& [key, value] : m.config) {
      check_writable("config key", key, ",\"\r\n;=");
      check_writable("config value", value, ",\"\r\n;");  // '=' is fine: the key ends at the first
      if (!config.empty()) config += ';';
      config += key + '=' + value;
    }
    const std::string problem = check_config(m);
    if (!problem.empty()) throw std::invalid_argument("measurement CSV: case " + m.case_id + ": " + problem);
    if (!std::isfinite(m.value) || !std::isfinite(m.stdev))
      throw std::invalid_argument("measurement CSV: case " + m.case_id + ": non-finite value or stdev");
    const MeasurementProvenance& p = m.provenance;
    const std::vector<std::string_view> text_fields{m.case_id, m.unit, p.gpu_name, p.driver,
                                                    p.cuda, p.date, p.git_commit};
    for (std::string_view t : text_fields) check_writable("field", t, kReserved);
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", to_string(m.family),
                       m.case_id, config, format_number(m.value), m.unit, m.reps,
                       format_number(m.stdev), p.gpu_name, p.sm_count, p.driver, p.cuda,
                       p.sm_clock_mhz ? format_number(*p.sm_clock_mhz) : "",
                       p.mem_clock_mhz ? format_number(*p.mem_clock_mhz) : "", p.date,
                       p.git_commit);
  }
  return out;
}

}  // namespace parallax::models

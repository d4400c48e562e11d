// File: sim/scenario/config_fields.cpp
#include "sim/scenario/config_fields.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <span>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/scenario/byte_count.h"
#include "sim/io/did_you_mean.h"
#include "sim/scenario/schema_recorder.h"

namespace parallax {

namespace {

// "'a.b'" for a key, "the document" for the root.
std::string quoted(const std::string& path) { return path.empty() ? "the document" : fmt::format("'{}'", path); }

const std::string& scalar_text(const ConfigNode& node, const std::string& path, std::string_view expected) {
  if (node.kind != ConfigNode::Kind::scalar)
    fail_at(node, path, fmt::format("{} must be {}, got {}", quoted(path), expected, kind_name(node.kind)));
  return node.scalar;
}

bool is_yaml_non_finite(std::string_view s) {
  for (std::string_view w : {".nan", ".NaN", ".NAN", "nan", "NaN", ".inf", ".Inf", ".INF", "inf", "+.inf",
                             "-.inf", "-.Inf", "+.Inf", "-inf", "+inf", "-.INF", "+.INF"})
    if (s == w) return true;
  return false;
}

// The path, relative to `node`, of the nearest key named `key` (or one edit from it) below `node`'s
// own entries, breadth first: for a key written at the wrong depth, as `--set workload.ls.rate_per_s`
// is for `workload.ls.arrivals.rate_per_s`. "" when there is none.
std::string key_below(const ConfigNode& node, std::string_view key) {
  struct Pending {
    const ConfigNode* node;
    std::string path;
  };
  std::vector<Pending> level;
  for (const ConfigEntry& e : node.entries) level.push_back({&e.value, e.key});
  const std::string_view only[] = {key};
  for (size_t depth = 0; depth < 4 && !level.empty(); ++depth) {
    std::vector<Pending> next;
    for (const Pending& p : level) {
      if (p.node->kind == ConfigNode::Kind::map) {
        for (const ConfigEntry& e : p.node->entries)
          if (!closest_match(e.key, only).empty()) return join_path(p.path, e.key);
        for (const ConfigEntry& e : p.node->entries) next.push_back({&e.value, join_path(p.path, e.key)});
      } else if (p.node->kind == ConfigNode::Kind::sequence) {
        for (size_t i = 0; i < p.node->items.size(); ++i)
          next.push_back({&p.node->items[i], join_path(p.path, std::to_string(i))});
      }
    }
    level = std::move(next);
  }
  return "";
}

}  // namespace

std::string join_path(std::string_view parent, std::string_view key) {
  if (parent.empty()) return std::string(key);
  return fmt::format("{}.{}", parent, key);
}

std::string join_path(std::string_view parent, size_t index) { return join_path(parent, std::to_string(index)); }

void fail_at(const ConfigNode& node, const std::string& path, const std::string& message) {
  throw InputError(node.where, path, message);
}

// The schema recorder (schema_recorder.h) notes each read when `parallax reference scenario` runs.
static void note(const ConfigNode& node, const std::string& path, const std::string& type,
                 const std::string& constraint = {}) {
  if (SchemaRecorder* r = active_schema_recorder()) r->field(node.where.file, path, type, constraint);
}

std::string read_string(const ConfigNode& node, const std::string& path) {
  note(node, path, "string");
  return scalar_text(node, path, "a string");
}

double read_number(const ConfigNode& node, const std::string& path) {
  note(node, path, "number");
  const std::string& s = scalar_text(node, path, "a number");
  if (is_yaml_non_finite(s)) fail_at(node, path, fmt::format("{} must be a finite number, got '{}'", quoted(path), s));
  double value = 0;
  const char* begin = s.data() + (s.size() > 1 && s[0] == '+' ? 1 : 0);
  const auto [end, ec] = std::from_chars(begin, s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty())
    fail_at(node, path, fmt::format("{} must be a number, got '{}'", quoted(path), s));
  if (!std::isfinite(value)) fail_at(node, path, fmt::format("{} must be a finite number, got '{}'", quoted(path), s));
  return value;
}

int64_t read_integer(const ConfigNode& node, const std::string& path) {
  note(node, path, "integer");
  const std::string& s = scalar_text(node, path, "an integer");
  int64_t value = 0;
  const char* begin = s.data() + (s.size() > 1 && s[0] == '+' ? 1 : 0);
  const auto [end, ec] = std::from_chars(begin, s.data() + s.size(), value);
  if (ec == std::errc::result_out_of_range) fail_at(node, path, fmt::format("{} is out of range: '{}'", quoted(path), s));
  if (ec != std::errc() || end != s.data() + s.size() || s.empty())
    fail_at(node, path, fmt::format("{} must be an integer, got '{}'", quoted(path), s));
  return value;
}

uint64_t read_unsigned(const ConfigNode& node, const std::string& path) {
  note(node, path, "integer", ">= 0");
  const std::string& s = scalar_text(node, path, "a non-negative integer");
  uint64_t value = 0;
  const char* begin = s.data() + (s.size() > 1 && s[0] == '+' ? 1 : 0);
  const auto [end, ec] = std::from_chars(begin, s.data() + s.size(), value);
  if (ec == std::errc::result_out_of_range) fail_at(node, path, fmt::format("{} is out of range: '{}'", quoted(path), s));
  if (ec != std::errc() || end != s.data() + s.size() || s.empty())
    fail_at(node, path, fmt::format("{} must be a non-negative integer, got '{}'", quoted(path), s));
  return value;
}

bool read_bool(const ConfigNode& node, const std::string& path) {
  note(node, path, "true or false");
  const std::string& s = scalar_text(node, path, "true or false");
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  fail_at(node, path, fmt::format("{} must be true or false, got '{}'", quoted(path), s));
}

int64_t read_byte_count(const ConfigNode& node, const std::string& path) {
  note(node, path, "byte count (1MiB, 64GB, 4096)", ">= 0");
  const std::string& s = scalar_text(node, path, "a byte count");
  const ByteCountParse parsed = parse_byte_count(s);
  if (!parsed.bytes) fail_at(node, path, fmt::format("{}: {}", quoted(path), parsed.error));
  return *parsed.bytes;
}

std::vector<std::string> read_string_list(const ConfigNode& node, const std::string& path) {
  if (node.kind != ConfigNode::Kind::sequence)
    fail_at(node, path, fmt::format("{} must be a list of strings, got {}", quoted(path), kind_name(node.kind)));
  std::vector<std::string> out;
  for (size_t i = 0; i < node.items.size(); ++i) out.push_back(read_string(node.items[i], join_path(path, i)));
  return out;
}

double read_positive(const ConfigNode& node, const std::string& path) {
  const double v = read_number(node, path);
  note(node, path, "number", "> 0");
  if (!(v > 0)) fail_at(node, path, fmt::format("{} must be greater than 0, got {}", quoted(path), node.scalar));
  return v;
}

double read_non_negative(const ConfigNode& node, const std::string& path) {
  const double v = read_number(node, path);
  note(node, path, "number", ">= 0");
  if (v < 0) fail_at(node, path, fmt::format("{} must not be negative, got {}", quoted(path), node.scalar));
  return v;
}

int64_t read_integer_in(const ConfigNode& node, const std::string& path, int64_t min, int64_t max) {
  const int64_t v = read_integer(node, path);
  note(node, path, "integer", fmt::format("{} to {}", min, max));
  if (v < min) fail_at(node, path, fmt::format("{} must be at least {}, got {}", quoted(path), min, v));
  if (v > max) fail_at(node, path, fmt::format("{} must be at most {}, got {}", quoted(path), max, v));
  return v;
}

double read_number_in(const ConfigNode& node, const std::string& path, const NumberRange& range, double scale) {
  const double v = read_number(node, path);
  const double lo = range.min / scale, hi = range.max / scale;
  note(node, path, "number", fmt::format("{}{:g} to {:g}", range.min_exclusive ? "> " : "", lo, hi));
  const double scaled = v * scale;
  if (range.min_exclusive ? !(scaled > range.min) : scaled < range.min) {
    if (lo == 0)
      fail_at(node, path, fmt::format("{} must {}, got {}", quoted(path),
                                      range.min_exclusive ? "be greater than 0" : "not be negative", node.scalar));
    if (!(v > 0)) fail_at(node, path, fmt::format("{} must be greater than 0, got {}", quoted(path), node.scalar));
    fail_at(node, path, fmt::format("{} must be {} {:g}, got {} ({})", quoted(path),
                                    range.min_exclusive ? "greater than" : "at least", lo, node.scalar, range.why));
  }
  if (scaled > range.max)
    fail_at(node, path, fmt::format("{} must be at most {:g}, got {} ({})", quoted(path), hi, node.scalar, range.why));
  return scaled;
}

std::string read_choice(const ConfigNode& node, const std::string& path,
                        std::initializer_list<std::string_view> choices) {
  std::string s = read_string(node, path);
  note(node, path, "string", fmt::format("one of {}", fmt::join(choices, ", ")));
  for (std::string_view c : choices)
    if (c == s) return s;
  const std::span<const std::string_view> list(choices.begin(), choices.size());
  fail_at(node, path, fmt::format("{} must be one of {}; got '{}'{}", quoted(path), fmt::join(choices, ", "), s,
                                  did_you_mean_suffix(s, list)));
}

void expect_map(const ConfigNode& node, const std::string& path) {
  if (node.kind != ConfigNode::Kind::map)
    fail_at(node, path, fmt::format("{} must be a mapping, got {}", quoted(path), kind_name(node.kind)));
}

MapFields::MapFields(const ConfigNode& node, std::string path, std::span<const std::string_view> allowed)
    : node_(node), path_(std::move(path)) {
  expect_map(node_, path_);
  const std::span<const std::string_view> list = allowed;
  if (SchemaRecorder* r = active_schema_recorder()) {
    std::string variant;
    for (const ConfigEntry& e : node_.entries)
      if ((e.key == "kind" || e.key == "shape" || e.key == "mode") && e.value.kind == ConfigNode::Kind::scalar)
        variant += (variant.empty() ? "" : ", ") + e.key + ": " + e.value.scalar;
    r->mapping(node_.where.file, path_, allowed, variant);
  }
  for (const ConfigEntry& e : node_.entries) {
    bool known = false;
    for (std::string_view k : allowed) known = known || k == e.key;
    if (known) continue;
    std::string hint = did_you_mean_suffix(e.key, list);
    if (hint.empty())
      if (const std::string below = key_below(node_, e.key); !below.empty())
        hint = fmt::format(" (did you mean '{}'?)", path_of(below));
    throw InputError(e.key_where, path_of(e.key), fmt::format("unknown key '{}'{}", path_of(e.key), hint));
  }
}

const ConfigNode* MapFields::optional(std::string_view key) const {
  const ConfigEntry* e = find_entry(node_, key);
  return e == nullptr ? nullptr : &e->value;
}

const ConfigNode& MapFields::required(std::string_view key) const {
  if (SchemaRecorder* r = active_schema_recorder()) r->required(node_.where.file, path_of(key));
  const ConfigNode* value = optional(key);
  if (value == nullptr) fail_at(node_, path_of(key), fmt::format("missing required key '{}'", path_of(key)));
  return *value;
}

}  // namespace parallax

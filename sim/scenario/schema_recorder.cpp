// File: sim/scenario/schema_recorder.cpp
#include "sim/scenario/schema_recorder.h"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

namespace parallax {

namespace {
thread_local SchemaRecorder* g_recorder = nullptr;
}  // namespace

SchemaRecorder* active_schema_recorder() { return g_recorder; }

ScopedSchemaRecording::ScopedSchemaRecording(SchemaRecorder& recorder) : previous_(g_recorder) {
  g_recorder = &recorder;
}

ScopedSchemaRecording::~ScopedSchemaRecording() { g_recorder = previous_; }

std::string schema_path(std::string_view dotted) {
  std::string out;
  size_t start = 0;
  while (start <= dotted.size()) {
    size_t end = dotted.find('.', start);
    if (end == std::string_view::npos) end = dotted.size();
    const std::string_view part = dotted.substr(start, end - start);
    const bool index = !part.empty() && std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!out.empty() || start > 0) out += '.';
    out += index ? std::string_view("N") : part;
    start = end + 1;
  }
  return out;
}

std::string SchemaRecorder::document(const std::string& file) const {
  if (file.empty() || scenario_files_.contains(file)) return "";
  if (file.find("hardware") != std::string::npos) return "hardware preset";
  const size_t slash = file.find_last_of('/');
  std::string stem = file.substr(slash == std::string::npos ? 0 : slash + 1);
  if (const size_t dot = stem.rfind('.'); dot != std::string::npos) stem.resize(dot);
  return stem;
}

std::string SchemaRecorder::scope(const std::string& document, const std::string& path) const {
  return document.empty() && path.starts_with("workload.") ? workload_kind_ : std::string();
}

std::string SchemaRecorder::field_id(const std::string& file, const std::string& dotted) const {
  const std::string d = document(file), p = schema_path(dotted);
  return d + "\n" + scope(d, p) + "\n" + p;
}

void SchemaRecorder::mapping(const std::string& file, const std::string& path,
                             std::span<const std::string_view> allowed, const std::string& variant) {
  const std::string d = document(file), p = schema_path(path);
  const std::string sc = scope(d, p + ".");  // the scope of its keys: `workload` itself is per kind
  for (const Mapping& m : mappings_)
    if (m.document == d && m.path == p && m.scope == sc && m.variant == variant) return;
  Mapping m{d, p, sc, variant, {}};
  for (std::string_view k : allowed) m.keys.emplace_back(k);
  mappings_.push_back(std::move(m));
}

void SchemaRecorder::required(const std::string& file, const std::string& path) {
  required_.insert(field_id(file, path));
}

void SchemaRecorder::field(const std::string& file, const std::string& path, const std::string& type,
                           const std::string& constraint) {
  Field& f = fields_[field_id(file, path)];
  f.type = type;
  if (!constraint.empty()) f.constraint = constraint;
}

std::string SchemaRecorder::markdown() const {
  std::vector<const Mapping*> sorted;
  for (const Mapping& m : mappings_) sorted.push_back(&m);
  std::stable_sort(sorted.begin(), sorted.end(), [](const Mapping* a, const Mapping* b) {
    return std::tie(a->document, a->path, a->scope, a->variant) < std::tie(b->document, b->path, b->scope, b->variant);
  });
  std::string out;
  for (const Mapping* m : sorted) {
    const std::string title = m->path.empty() ? "(top level)" : m->path;
    // `workload` itself says its kind in its variant; the mappings below it name the kind.
    std::string qualifier = m->path == "workload" || m->scope.empty() ? "" : "workload kind: " + m->scope;
    if (!m->variant.empty()) qualifier += (qualifier.empty() ? "" : "; ") + m->variant;
    out += fmt::format("\n### {}`{}`{}\n\n", m->document.empty() ? "" : m->document + ": ", title,
                       qualifier.empty() ? "" : fmt::format(" ({})", qualifier));
    out += "| key | value | constraint | required |\n|---|---|---|---|\n";
    for (const std::string& k : m->keys) {
      const std::string full = m->path.empty() ? k : m->path + "." + k;
      const std::string id = m->document + "\n" + m->scope + "\n" + full;
      const auto f = fields_.find(id);
      std::string type = f == fields_.end() ? "" : f->second.type;
      if (type.empty()) {  // a mapping or list below this one, or a key no shipped scenario sets
        bool below = false;
        for (const Mapping& other : mappings_)
          below = below || (other.document == m->document && (other.scope == m->scope || full == "workload") &&
                            (other.path == full || other.path == full + ".N"));
        type = below ? "mapping (below)" : "(not set by the shipped scenarios)";
        for (const auto& [key, field] : fields_)
          if (key == id + ".N") type = "list of " + field.type;
      }
      out += fmt::format("| `{}` | {} | {} | {} |\n", k, type, f == fields_.end() ? "" : f->second.constraint,
                         required_.contains(id) ? "yes" : "");
    }
  }
  return out;
}

}  // namespace parallax

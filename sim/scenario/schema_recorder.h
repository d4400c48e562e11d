// File: sim/scenario/schema_recorder.h
// Records the schema the loader enforces while it reads scenarios: every mapping it checks with
// its allowed keys (config_fields.h MapFields), which keys it requires, and the type and range
// each value is read with (read_number, read_choice, ...). `parallax reference scenario FILES`
// loads the shipped scenarios with a recorder active and prints docs/scenario-reference.md from
// it, so the reference is the loader's own rules, not a description of them that can drift.
// Keys below `workload` are recorded per workload kind (set by the loader as it reads
// `workload.kind`), since kinds reuse key names with other types (serverless `nodes: 4` is a count,
// cluster_packing `nodes:` a file path).
// Recording is off unless a ScopedSchemaRecording is alive on the thread; then it costs a branch.
#pragma once

#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace parallax {

class SchemaRecorder {
 public:
  // Files whose mappings are the scenario itself; any other file read on the way (a hardware
  // preset, the model catalog) gets sections of its own, named after the file.
  void add_scenario_file(const std::string& file) { scenario_files_.insert(file); }
  // The scenario being read has this workload kind: what follows below `workload` is its.
  void workload_kind(const std::string& kind) { workload_kind_ = kind; }

  // A mapping of `file` at `path` checked against `allowed`; `variant` names what selected this
  // key set ("kind: serverless", "shape: crossbar"; empty when the mapping has no kind or shape).
  void mapping(const std::string& file, const std::string& path, std::span<const std::string_view> allowed,
               const std::string& variant);
  void required(const std::string& file, const std::string& path);
  // The value at `path` was read as `type` ("number", "byte count"), with `constraint` ("> 0",
  // "one of a, b") when there is one. A later call for the same path refines the earlier one.
  void field(const std::string& file, const std::string& path, const std::string& type,
             const std::string& constraint = {});

  // Markdown: one section per mapping (and variant), a table of its keys with type, constraint,
  // required. Paths have list indices written as `N` ("workload.collectives.N.bytes").
  std::string markdown() const;

 private:
  // "" for a scenario file, else "hardware preset", "model catalog", ... (the file's stem).
  std::string document(const std::string& file) const;
  // The workload kind a key path of `document` belongs to: the current one for keys of `workload`
  // and below ("workload.nodes"), else "" (the top-level key `workload` itself).
  std::string scope(const std::string& document, const std::string& path) const;
  // The key of a field or required key: document, scope and path.
  std::string field_id(const std::string& file, const std::string& dotted) const;

  struct Mapping {
    std::string document, path, scope, variant;  // scope: that of its keys
    std::vector<std::string> keys;             // allowed, in the loader's order
  };
  std::string workload_kind_;  // of the scenario being read
  struct Field {
    std::string type, constraint;
  };
  std::set<std::string> scenario_files_;
  std::vector<Mapping> mappings_;
  std::map<std::string, Field> fields_;  // by document + "\n" + scope + "\n" + path
  std::set<std::string> required_;       // the same keys
};

// The recorder of this thread, or nullptr (the normal case).
SchemaRecorder* active_schema_recorder();

class ScopedSchemaRecording {
 public:
  explicit ScopedSchemaRecording(SchemaRecorder& recorder);
  ~ScopedSchemaRecording();
  ScopedSchemaRecording(const ScopedSchemaRecording&) = delete;
  ScopedSchemaRecording& operator=(const ScopedSchemaRecording&) = delete;

 private:
  SchemaRecorder* previous_;
};

// "workload.collectives.0.bytes" -> "workload.collectives.N.bytes".
std::string schema_path(std::string_view dotted);

}  // namespace parallax

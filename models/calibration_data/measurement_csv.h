// File: models/calibration_data/measurement_csv.h
// The hardware measurement CSV that `parallax hw calibrate` writes and `parallax fit` /
// `parallax validate` read (docs/calibration.md has the format). One row per measured
// configuration; the provenance of the measurement (GPU, driver, CUDA, clocks, date, commit)
// repeats on every row so that rows can be concatenated from several runs.
//
//   std::vector<Measurement> rows = read_measurements_csv("out/measurements.csv");
//   double m = rows[0].number("m");   // DataError naming the file:line if missing / not a number
//
// Writing: format_measurements_csv(rows) returns the text; the caller writes it atomically
// (sim/report/atomic_file.h). Both directions are strict: a row that would not read back is
// refused when written (std::invalid_argument), and reading refuses unknown families, missing or
// unknown config keys, non-numeric numbers and duplicate cases with file:line (DataError).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace parallax::models {

enum class MeasurementFamily {
  gemm, copy, launch, corun, swap, interdecom, intrafusion, colocate, serverless, multiplex, sm_scaling
};

std::string_view to_string(MeasurementFamily family);
std::optional<MeasurementFamily> parse_measurement_family(std::string_view name);

// Where and with what a measurement was taken. Clocks: nullopt when the backend could not read them.
struct MeasurementProvenance {
  std::string gpu_name;                 // e.g. "NVIDIA H200"
  int sm_count = 0;
  std::string driver;                   // e.g. "550.54.15"
  std::string cuda;                     // CUDA runtime version, e.g. "12.4"
  std::optional<double> sm_clock_mhz;
  std::optional<double> mem_clock_mhz;
  std::string date;                     // ISO 8601
  std::string git_commit;               // parallax's commit
  bool operator==(const MeasurementProvenance&) const = default;
};

struct Measurement {
  MeasurementFamily family = MeasurementFamily::gemm;
  std::string case_id;                                       // unique in a file
  std::vector<std::pair<std::string, std::string>> config;   // key=value, in file order
  double value = 0.0;
  std::string unit = "s";
  int reps = 1;
  double stdev = 0.0;
  MeasurementProvenance provenance;
  std::string file;                                          // where it was read from ("" if built)
  int line = 0;                                              // 1-based line in `file`

  // The config value of `key`; DataError at file:line if absent.
  const std::string& text(std::string_view key) const;
  // The config value of `key` as a finite number; DataError at file:line if absent or not one.
  double number(std::string_view key) const;
  bool has(std::string_view key) const;
  bool operator==(const Measurement& o) const;  // compares everything but file and line
};

// The exact header line, without the line end.
std::string_view measurement_csv_header();

// Config keys each family must have (and, except the trials' families, the only keys allowed:
// colocate, serverless, multiplex, and interdecom/intrafusion, whose rows also carry the overlap
// trial's keys, hw/trial_config.h).
std::vector<std::string_view> required_config_keys(MeasurementFamily family);

// Parses CSV text; `path` names it in errors. Accepts a UTF-8 byte-order mark, CRLF line ends
// and blank lines. Throws DataError.
std::vector<Measurement> parse_measurements_csv(std::string_view text, const std::string& path);
// Reads a file; DataError (line 0) if it cannot be opened.
std::vector<Measurement> read_measurements_csv(const std::string& path);

// The CSV text of `rows` (header first). Throws std::invalid_argument for a row that would not
// read back: a field holding a comma, quote or line break, a config key holding ';' or '=', a
// config value holding ';', a missing required key, a non-finite value.
std::string format_measurements_csv(const std::vector<Measurement>& rows);

}  // namespace parallax::models

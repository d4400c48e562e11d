// File: models/calibration_data/nccl_tests_log.h
// Reads the text output of NVIDIA's nccl-tests (all_reduce_perf, all_gather_perf,
// reduce_scatter_perf, ...) as users keep it: comment lines starting with '#', the rank/device
// lines, the column header, interleaved NCCL INFO or launcher lines, the "Out of bounds values"
// and "Avg bus bandwidth" trailer. Both table layouts are accepted, located by the header line:
//
//   current: size count type redop root time algbw busbw #wrong  time algbw busbw #wrong
//   older:   size count type redop      time algbw busbw error   time algbw busbw error
//   oldest:  size count type            time algbw busbw error   time algbw busbw error
//
// The first group of time/algbw/busbw/check is out-of-place, the second in-place. A launcher
// label before every line (srun -l's "0: ", mpirun --tag-output's "[1,0]<stdout>:") is whatever
// precedes the '#' of the header line and is removed from the lines that carry it.
//
// A line whose first field (after the label) is an integer is a table row and must parse: the
// header's number of fields, numbers where numbers belong; otherwise DataError names file:line.
// Any other line that does not start with '#' is someone else's output and is skipped.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parallax::models {

struct NcclTestsTiming {
  double time_s = 0.0;
  double algbw_GBps = 0.0;
  double busbw_GBps = 0.0;
  std::string check;   // "#wrong" count or "error" magnitude as printed ("0", "2e-07", "N/A")
  bool wrong = false;  // #wrong > 0: the results were wrong and the row says nothing about speed
};

struct NcclTestsRow {
  int line = 0;
  double bytes = 0.0;   // the "size" column: nccl-tests' S (REFERENCE.md §2.3)
  double count = 0.0;   // elements
  std::string type;     // float, half, bfloat16, ...
  std::string redop;    // sum, none, ... (empty in the oldest layout)
  NcclTestsTiming out_of_place;
  std::optional<NcclTestsTiming> in_place;
};

struct NcclTestsLog {
  std::string path;
  int ranks = 0;                        // distinct "Rank N" lines; 0 when the log has none
  std::vector<std::string> devices;     // device names from the rank lines, in rank order
  int nodes = 0;                        // distinct hosts ("on HOST") of the rank lines; 0 when none
  std::string collective;               // "all_reduce", "all_gather", "reduce_scatter" or ""
  std::vector<NcclTestsRow> rows;       // in file order; rows of size 0 are skipped
  std::optional<double> avg_busbw_GBps; // the trailer, if present
};

// Parses log text. `path` names it in errors and, with the text, hints the collective: the
// first of all_reduce / all_gather / reduce_scatter (or allreduce ... , with or without _perf)
// found in the file name, else in the text. Throws DataError: no header line, a malformed row,
// no rows.
NcclTestsLog parse_nccl_tests_log(std::string_view text, const std::string& path);
NcclTestsLog read_nccl_tests_log(const std::string& path);

}  // namespace parallax::models

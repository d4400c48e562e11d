// File: models/calibration_data/measurement_csv_test.cpp
#include "models/calibration_data/measurement_csv.h"

#include <gtest/gtest.h>

#include <string>

#include "models/calibration_data/data_error.h"

namespace parallax::models {
namespace {

MeasurementProvenance h200() {
  return {"NVIDIA H200", 132, "550.54.15", "12.4", 1980.0, std::nullopt, "2026-11-30T08:00:00Z", "8d23a52"};
}

std::vector<Measurement> sample_rows() {
  std::vector<Measurement> rows;
  Measurement g;
  g.family = MeasurementFamily::gemm;
  g.case_id = "gemm/bf16/4096x4096x4096";
  g.config = {{"dtype", "bf16"}, {"m", "4096"}, {"n", "4096"}, {"k", "4096"}};
  g.value = 1.8734567891234e-4;
  g.reps = 50;
  g.stdev = 1.1e-6;
  g.provenance = h200();
  rows.push_back(g);
  Measurement c;
  c.family = MeasurementFamily::copy;
  c.case_id = "copy/h2d/pinned/1048576";
  c.config = {{"kind", "h2d"}, {"host_memory", "pinned"}, {"bytes", "1048576"}};
  c.value = 2.5e-5;
  c.reps = 20;
  c.stdev = 0.0;
  c.provenance = h200();
  rows.push_back(c);
  Measurement s;
  s.family = MeasurementFamily::serverless;
  s.case_id = "serverless/torpor/p99";
  s.config = {{"policy", "torpor"}, {"metric", "ls_p99_latency_s"}, {"models", "16"}};
  s.value = 0.125;
  s.reps = 3;
  s.stdev = 0.004;
  s.provenance = h200();
  s.provenance.sm_clock_mhz.reset();
  rows.push_back(s);
  return rows;
}

std::string csv_error_of(const std::string& text) {
  try {
    parse_measurements_csv(text, "m.csv");
  } catch (const DataError& e) {
    return e.what();
  }
  return "no error";
}

std::string with_header(const std::string& rows) {
  return std::string(measurement_csv_header()) + "\n" + rows;
}

const std::string kProv = ",NVIDIA H200,132,550.54.15,12.4,1980,,2026-11-30,abc\n";

TEST(MeasurementCsv, RoundTripsEveryField) {
  const std::vector<Measurement> rows = sample_rows();
  const std::string text = format_measurements_csv(rows);
  const std::vector<Measurement> back = parse_measurements_csv(text, "m.csv");
  ASSERT_EQ(back.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(back[i], rows[i]) << i;
  EXPECT_EQ(back[1].line, 3);
  EXPECT_EQ(back[0].number("m"), 4096.0);
  EXPECT_FALSE(back[2].provenance.sm_clock_mhz.has_value());
  EXPECT_EQ(format_measurements_csv(back), text);  // and the text is stable
}

TEST(MeasurementCsv, AcceptsBomCrlfAndBlankLines) {
  const std::string text = "\xEF\xBB\xBF" + std::string(measurement_csv_header()) + "\r\n\r\n" +
                           "launch,l1,what=launch;kernels=100,3e-6,s,10,1e-7" + kProv;
  const auto rows = parse_measurements_csv(text, "m.csv");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].line, 3);
  EXPECT_EQ(rows[0].text("what"), "launch");
}

TEST(MeasurementCsv, RefusesBadRowsWithFileAndLine) {
  EXPECT_EQ(csv_error_of(with_header("gem,x,dtype=bf16;m=1;n=1;k=1,1e-3,s,1,0" + kProv)),
            "m.csv:2: unknown family 'gem' (one of: gemm, copy, launch, corun, swap, interdecom, "
            "intrafusion, colocate, serverless, multiplex, sm_scaling)");
  EXPECT_EQ(csv_error_of(with_header("gemm,x,dtype=bf16;m=1;n=1,1e-3,s,1,0" + kProv)),
            "m.csv:2: gemm row lacks config key 'k'");
  EXPECT_EQ(csv_error_of(with_header("gemm,x,dtype=bf16;m=1;n=1;k=1,fast,s,1,0" + kProv)),
            "m.csv:2: value must be a finite number, got 'fast'");
  EXPECT_EQ(csv_error_of(with_header("gemm,x,dtype=bf16;m=1;n=1;k=1.5,1e-3,s,1,0" + kProv)),
            "m.csv:2: config k=1.5: expected an integer from 1 to 2147483647 (a GEMM dimension, cuBLAS's int)");
  // A shape beyond cuBLAS's int would overflow the tile counts of the fit (m = 2^63 - 1 once did).
  EXPECT_EQ(csv_error_of(with_header("gemm,x,dtype=bf16;m=9223372036854775807;n=1;k=1,1e-3,s,1,0" + kProv)),
            "m.csv:2: config m=9223372036854775807: expected an integer from 1 to 2147483647 (a GEMM "
            "dimension, cuBLAS's int)");
  EXPECT_EQ(csv_error_of(with_header("gemm,x,dtype=tf32;m=1;n=1;k=1,1e-3,s,1,0" + kProv)),
            "m.csv:2: config dtype=tf32: expected bf16 or fp16");
  EXPECT_EQ(csv_error_of(with_header("gemm,x,dtype=bf16;m=1;n=1;k=1;tile=2,1e-3,s,1,0" + kProv)),
            "m.csv:2: unknown config key 'tile' for gemm (keys: dtype, m, n, k)");
  EXPECT_EQ(csv_error_of(with_header("copy,c,kind=h2d;host_memory=pinned;bytes=8,1e-3,s,1,0" + kProv +
                                 "copy,c,kind=h2d;host_memory=pinned;bytes=8,1e-3,s,1,0" + kProv)),
            "m.csv:3: case 'c' already appeared on line 2");
  EXPECT_EQ(csv_error_of(with_header("copy,c,kind=h2d;host_memory=pinned;bytes=8,0,s,1,0" + kProv)),
            "m.csv:2: a time must be > 0 s, got 0");
  EXPECT_EQ(csv_error_of(with_header("copy,c,kind=h2d;host_memory=pinned;bytes=8,1e-3,s,0,0" + kProv)),
            "m.csv:2: reps must be an integer >= 1, got '0'");
  EXPECT_EQ(csv_error_of(with_header("copy,c,kind=h2d,1e-3,s,1,0\n")), "m.csv:2: expected 15 fields, found 7");
  EXPECT_EQ(csv_error_of("family,case\n"), "m.csv:1: the header must be exactly '" +
                                           std::string(measurement_csv_header()) + "'");
  EXPECT_EQ(csv_error_of(""), "m.csv:1: empty file: no header line");
}

TEST(MeasurementCsv, ConfigLookupNamesTheRow) {
  const auto rows = parse_measurements_csv(
      with_header("colocate,c1,policy=mps;metric=ls_p99_latency_s;load=high,0.02,s,3,0.001" + kProv), "m.csv");
  EXPECT_EQ(rows[0].text("load"), "high");
  try {
    (void)rows[0].number("load");
    FAIL() << "no error";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()), "m.csv:2: config load=high is not a number");
  }
}

TEST(MeasurementCsv, WriterRefusesWhatWouldNotReadBack) {
  std::vector<Measurement> rows = sample_rows();
  rows[0].provenance.gpu_name = "NVIDIA H200, SXM";
  EXPECT_THROW(format_measurements_csv(rows), std::invalid_argument);
  rows = sample_rows();
  rows[1].config.pop_back();
  EXPECT_THROW(format_measurements_csv(rows), std::invalid_argument);
  rows = sample_rows();
  rows[2].config.emplace_back("note", "a;b");
  EXPECT_THROW(format_measurements_csv(rows), std::invalid_argument);
}

}  // namespace
}  // namespace parallax::models

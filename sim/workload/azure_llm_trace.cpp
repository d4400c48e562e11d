// File: sim/workload/azure_llm_trace.cpp
#include "sim/workload/azure_llm_trace.h"

#include <fmt/format.h>

#include <chrono>

namespace parallax {

namespace {

// Parses exactly `n` decimal digits at text[pos..].
bool fixed_digits(std::string_view text, size_t pos, size_t n, int& out) {
  if (pos + n > text.size()) return false;
  out = 0;
  for (size_t k = pos; k < pos + n; ++k) {
    if (text[k] < '0' || text[k] > '9') return false;
    out = out * 10 + (text[k] - '0');
  }
  return true;
}

uint32_t parse_tokens(const CsvReader& csv, size_t i) {
  const uint64_t v = csv.parse_uint(i);
  if (v > UINT32_MAX) throw csv.column_error(i, fmt::format("token count {} too large", v));
  return static_cast<uint32_t>(v);
}

}  // namespace

bool parse_civil_timestamp(std::string_view t, CivilTimestamp& out) {
  // 0123456789012345678
  // YYYY-MM-DD HH:MM:SS
  int y, mo, d, h, mi, s;
  if (t.size() < 19 || t[4] != '-' || t[7] != '-' || t[10] != ' ' || t[13] != ':' || t[16] != ':') return false;
  if (!fixed_digits(t, 0, 4, y) || !fixed_digits(t, 5, 2, mo) || !fixed_digits(t, 8, 2, d) ||
      !fixed_digits(t, 11, 2, h) || !fixed_digits(t, 14, 2, mi) || !fixed_digits(t, 17, 2, s)) {
    return false;
  }
  const std::chrono::year_month_day date{std::chrono::year(y), std::chrono::month(static_cast<unsigned>(mo)),
                                         std::chrono::day(static_cast<unsigned>(d))};
  if (!date.ok() || h > 23 || mi > 59 || s > 59) return false;
  int64_t fraction_ps = 0;
  if (t.size() > 19) {
    const size_t digits = t.size() - 20;
    if (t[19] != '.' || digits == 0 || digits > 12) return false;
    for (size_t k = 20; k < t.size(); ++k) {
      if (t[k] < '0' || t[k] > '9') return false;
      fraction_ps = fraction_ps * 10 + (t[k] - '0');
    }
    for (size_t k = digits; k < 12; ++k) fraction_ps *= 10;
  }
  const int64_t days = std::chrono::sys_days(date).time_since_epoch().count();
  out.seconds = days * 86400 + h * 3600 + mi * 60 + s;
  out.subsecond_ps = fraction_ps;
  return true;
}

AzureLlmTraceReader::AzureLlmTraceReader(std::istream& in, std::string source) : csv_(in, std::move(source)) {
  csv_.read_header("TIMESTAMP,ContextTokens,GeneratedTokens");
  csv_.require_header_name(0, "TIMESTAMP");
  csv_.require_header_name(1, "ContextTokens");
  csv_.require_header_name(2, "GeneratedTokens");
  if (csv_.header().size() != 3) throw csv_.error("", fmt::format("header has {} columns, expected 3", csv_.header().size()));
}

bool AzureLlmTraceReader::next(AzureLlmRequest& row) {
  if (!csv_.next_row()) return false;
  csv_.require_field_count(3);
  CivilTimestamp ts;
  if (!parse_civil_timestamp(csv_.field(0), ts)) {
    throw csv_.column_error(0, fmt::format("expected 'YYYY-MM-DD HH:MM:SS[.fraction]', got '{}'", csv_.field(0)));
  }
  if (!have_first_) {
    first_ = previous_ = ts;
    have_first_ = true;
  } else if (ts < previous_) {
    throw csv_.column_error(0, fmt::format("timestamp {} is earlier than the one on line {}; rows must be in time "
                                           "order", csv_.field(0), previous_line_));
  }
  const int64_t seconds = ts.seconds - first_.seconds;
  if (seconds > Time::max().ps() / 1'000'000'000'000 - 1) {
    throw csv_.column_error(0, "more than 100 days after the first row");
  }
  row.at = Time::ps(seconds * 1'000'000'000'000 + ts.subsecond_ps - first_.subsecond_ps);
  row.context_tokens = parse_tokens(csv_, 1);
  row.generated_tokens = parse_tokens(csv_, 2);
  previous_ = ts;
  previous_line_ = csv_.line();
  return true;
}

TraceArrivals read_azure_llm_trace(const std::string& path) {
  std::ifstream in = open_trace_file(path);
  return read_azure_llm_trace(in, path);
}

TraceArrivals read_azure_llm_trace(std::istream& in, const std::string& source) {
  AzureLlmTraceReader reader(in, source);
  TraceArrivals out;
  out.function_names.push_back("llm");
  AzureLlmRequest row;
  while (reader.next(row)) {
    out.arrivals.push_back(
        Arrival{.at = row.at, .function = 0, .input_tokens = row.context_tokens, .output_tokens = row.generated_tokens});
  }
  if (out.arrivals.empty()) throw InputError({source, 1, 0}, "", "no data rows after the header");
  return out;
}

}  // namespace parallax

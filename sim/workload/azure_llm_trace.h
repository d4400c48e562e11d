// File: sim/workload/azure_llm_trace.h
// Reader for the Azure LLM inference traces (Splitwise, ISCA'24; AzureLLMInferenceTrace_{code,conv}
// .csv): `TIMESTAMP,ContextTokens,GeneratedTokens`, one request per row, in time order. Timestamps
// such as "2023-11-16 18:15:46.6805900" are naive wall-clock text; they are parsed field by field
// (no locale, no time zone, no floating point) and returned as exact offsets from the first row.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>

#include "sim/workload/arrival.h"
#include "sim/workload/csv_reader.h"

namespace parallax {

// A civil timestamp as whole seconds since 1970-01-01 00:00:00 (proleptic Gregorian, no zone)
// plus picoseconds within the second; kept apart because 2023 in picoseconds overflows int64.
struct CivilTimestamp {
  int64_t seconds = 0;
  int64_t subsecond_ps = 0;
  friend auto operator<=>(const CivilTimestamp&, const CivilTimestamp&) = default;
};

// "YYYY-MM-DD HH:MM:SS" with an optional fraction of 1 to 12 digits; false if malformed or if the
// date or time does not exist (2023-02-30, 24:00:00).
bool parse_civil_timestamp(std::string_view text, CivilTimestamp& out);

struct AzureLlmRequest {
  Time at;  // since the first row's timestamp
  uint32_t context_tokens = 0;
  uint32_t generated_tokens = 0;
};

class AzureLlmTraceReader {
 public:
  // Reads the file's text from `in`; `source` names it in errors.
  AzureLlmTraceReader(std::istream& in, std::string source);
  // Throws InputError naming both lines if a timestamp is earlier than the previous row's.
  bool next(AzureLlmRequest& row);

 private:
  CsvReader csv_;
  bool have_first_ = false;
  CivilTimestamp first_, previous_;
  int previous_line_ = 0;
};

// Every request as an Arrival of function 0 (named "llm") with its token counts.
TraceArrivals read_azure_llm_trace(const std::string& path);
TraceArrivals read_azure_llm_trace(std::istream& in, const std::string& source);

}  // namespace parallax

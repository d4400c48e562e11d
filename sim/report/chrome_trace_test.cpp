// File: sim/report/chrome_trace_test.cpp
// trace.json for the hand-made log of report_test_log.h, parsed back with nlohmann.
#include "sim/report/chrome_trace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/report/link_activity.h"
#include "sim/report/report_test_log.h"
#include "sim/report/trace_event_writer.h"
#include "sim/report/trace_tracks.h"

namespace parallax {
namespace {

using nlohmann::json;

struct ParsedTrace {
  json doc;
  std::map<int, std::string> process;                      // pid -> name
  std::map<std::pair<int, int>, std::string> thread;       // (pid, tid) -> name
  std::map<std::string, int> phase_count;                  // "X" -> n
  std::string text;

  int pid_of(const std::string& name) const {
    for (const auto& [pid, n] : process) if (n == name) return pid;
    return -1;
  }
  std::vector<std::string> threads_of(int pid) const {
    std::vector<std::pair<int, std::string>> sorted;
    for (const auto& [key, name] : thread) if (key.first == pid) sorted.emplace_back(key.second, name);
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::string> names;
    for (auto& [tid, name] : sorted) names.push_back(name);
    return names;
  }
  // The complete slices ("X") that name their activity (args.id), in file order.
  std::vector<const json*> activity_slices() const {
    std::vector<const json*> slices;
    for (const json& e : doc.at("traceEvents"))
      if (e.at("ph") == "X" && e.contains("args") && e.at("args").contains("id")) slices.push_back(&e);
    return slices;
  }
};

ParsedTrace write_and_parse(const ActivityLog& log, ChromeTraceOptions options = {},
                            ChromeTraceStats* stats = nullptr, const TraceAnnotations& notes = {}) {
  std::ostringstream out;
  const ChromeTraceStats s = write_chrome_trace(out, log, options, notes);
  if (stats != nullptr) *stats = s;
  ParsedTrace t;
  t.text = out.str();
  t.doc = json::parse(t.text);
  for (const json& e : t.doc.at("traceEvents")) {
    const std::string ph = e.at("ph");
    ++t.phase_count[ph];
    if (ph == "M" && e.at("name") == "process_name") t.process[e.at("pid")] = e.at("args").at("name");
    if (ph == "M" && e.at("name") == "thread_name") {
      t.thread[{e.at("pid").get<int>(), e.at("tid").get<int>()}] = e.at("args").at("name");
    }
  }
  return t;
}

TEST(ChromeTrace, ProcessesAndThreadsHaveReadableNames) {
  const ParsedTrace t = write_and_parse(testing::make_test_log());
  EXPECT_EQ(t.doc.at("displayTimeUnit"), "ns");
  std::vector<std::string> names;
  for (const auto& [pid, name] : t.process) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"GPU 0 (H100-SXM5)", "GPU 1 (H100-SXM5)", "host0",
                                             "NVLink gpu0→nvswitch", "NVLink nvswitch→gpu1",
                                             "PCIe host0→gpu0"}));
  EXPECT_EQ(t.threads_of(t.pid_of("GPU 0 (H100-SXM5)")),
            (std::vector<std::string>{"kernels", "SM partition p0", "copies out", "copies out (2)",
                                      "copies in", "collectives"}));
  EXPECT_EQ(t.threads_of(t.pid_of("GPU 1 (H100-SXM5)")),
            (std::vector<std::string>{"copies out", "copies in", "copies in (2)", "collectives"}));
  EXPECT_EQ(t.threads_of(t.pid_of("host0")), std::vector<std::string>{"copies out"});
  EXPECT_EQ(t.threads_of(t.pid_of("PCIe host0→gpu0")), std::vector<std::string>{"flows"});
}

TEST(ChromeTrace, SliceCounts) {
  const ParsedTrace t = write_and_parse(testing::make_test_log());
  // 2 kernels + 5 copies on both ends.
  EXPECT_EQ(t.phase_count.at("X"), 2 + 5 * 2);
  // Link flows: a, b, s0 on two links each, h2d on one (7); the collective on gpu0 and gpu1 (2).
  EXPECT_EQ(t.phase_count.at("b"), 9);
  EXPECT_EQ(t.phase_count.at("e"), 9);
  // Two counters per state change: 6 changes on each NVLink direction, 2 on PCIe.
  EXPECT_EQ(t.phase_count.at("C"), 2 * (6 + 6 + 2));
  EXPECT_EQ(t.phase_count.count("i"), 0u);
  EXPECT_FALSE(t.doc.contains("metadata"));
}

TEST(ChromeTrace, SlicesOnOneThreadNeverOverlap) {
  const ParsedTrace t = write_and_parse(testing::make_test_log());
  std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> slices;
  for (const json& e : t.doc.at("traceEvents")) {
    if (e.at("ph") != "X") continue;
    const double ts = e.at("ts");
    slices[{e.at("pid").get<int>(), e.at("tid").get<int>()}].emplace_back(ts, ts + e.at("dur").get<double>());
  }
  for (auto& [thread, list] : slices) {
    std::sort(list.begin(), list.end());
    for (size_t i = 1; i < list.size(); ++i) EXPECT_LE(list[i - 1].second, list[i].first);
  }
}

TEST(ChromeTrace, TimestampsAreExactMicroseconds) {
  ActivityLog log;
  log.gpu_models = {"A100"};
  log.records.push_back(testing::make_record(1, ActivityKind::kernel, "k", "gpu0", "gpu0", 0, 0));
  log.records.back().start = Time::ps(1234567);
  log.records.back().end = Time::ps(3000000000001);
  const ParsedTrace t = write_and_parse(log);
  EXPECT_NE(t.text.find("\"ts\":1.234567,\"dur\":2999998.765434"), std::string::npos) << t.text;
}

TEST(ChromeTrace, LinkCountersSumAverageRates) {
  const ParsedTrace t = write_and_parse(testing::make_test_log());
  const int link = t.pid_of("NVLink gpu0→nvswitch");
  std::vector<std::pair<std::string, int>> flows;
  std::vector<std::string> gbps;
  for (const json& e : t.doc.at("traceEvents")) {
    if (e.at("ph") != "C" || e.at("pid") != link) continue;
    if (e.at("name") == "active") flows.emplace_back(e.dump(), e.at("args").at("flows").get<int>());
  }
  ASSERT_EQ(flows.size(), 6u);
  // 1 MiB over 4 µs is 262.144 GB/s; a and b overlap from 2 to 5 µs.
  // As a share of the direction's 450 GB/s: 524.288 / 450 = 116.51 % (average rates overlap).
  EXPECT_NE(t.text.find("\"name\":\"utilisation\",\"ts\":2.000000,\"args\":{\"GB/s\":524.288,\"%\":116.51}"),
            std::string::npos);
  EXPECT_NE(t.text.find("\"name\":\"utilisation\",\"ts\":6.000000,\"args\":{\"GB/s\":0.000,\"%\":0.00}"),
            std::string::npos);
  const std::vector<int> expected = {1, 2, 1, 0, 1, 0};
  for (size_t i = 0; i < flows.size(); ++i) EXPECT_EQ(flows[i].second, expected[i]) << flows[i].first;
}

TEST(ChromeTrace, CollectiveShowsOnEveryGpuOfItsRing) {
  const auto groups = collective_groups(testing::make_test_log());
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups.at(5), (std::vector<std::string>{"gpu0", "gpu1"}));
}

TEST(ChromeTrace, IdenticalLogsGiveIdenticalBytes) {
  std::ostringstream one, two;
  write_chrome_trace(one, testing::make_test_log());
  write_chrome_trace(two, testing::make_test_log());
  EXPECT_EQ(one.str(), two.str());
}

TEST(ChromeTrace, CapKeepsTheEarliestAndSaysSo) {
  ChromeTraceStats stats;
  const ParsedTrace t = write_and_parse(testing::make_test_log(), {.max_records = 3}, &stats);
  EXPECT_TRUE(stats.truncated);
  EXPECT_EQ(stats.records_written, 3u);
  EXPECT_EQ(stats.records_total, 8u);
  // By start: gemm and h2d at 0, then attn and a at 1 (attn has the smaller id).
  std::set<std::string> names;
  for (const json& e : t.doc.at("traceEvents")) if (e.at("ph") == "X") names.insert(e.at("name"));
  EXPECT_EQ(names, (std::set<std::string>{"gemm", "h2d", "attn, \"fused\""}));
  EXPECT_EQ(t.phase_count.at("i"), 1);
  EXPECT_EQ(t.doc.at("metadata").at("parallax").at("records_total"), 8);
}

TEST(ChromeTrace, RejectsBadLinkIds) {
  ActivityLog log = testing::make_test_log();
  log.records[2].links = {3};
  std::ostringstream out;
  EXPECT_THROW(write_chrome_trace(out, log), std::invalid_argument);
}

// Two overlapping requests: one served by gemm (id 1) and the copy a (id 3), one by attn (id 2)
// and an id the log does not have (no arrow).
TraceAnnotations make_notes() {
  TraceAnnotations n;
  n.requests.push_back({.group = "service llm", .name = "req 1", .arrival = Time::ns(0), .finish = Time::us(10),
                        .activities = {1, 3}});
  n.requests.push_back({.group = "service llm", .name = "req 2", .arrival = Time::ns(500), .finish = Time::us(2),
                        .activities = {2, 99}});
  n.counters.push_back({.node = "gpu1", .name = "memory used", .unit = "GB", .samples = {{Time::zero(), 1.5},
                                                                                         {Time::us(4), 80}}});
  n.counters.push_back({.node = "scheduler", .name = "queue", .unit = "requests", .samples = {{Time::us(1), 3}}});
  return n;
}

TEST(ChromeTraceAnnotations, RequestsGetTheirOwnProcessFirstWithLanes) {
  const ParsedTrace t = write_and_parse(testing::make_test_log(), {}, nullptr, make_notes());
  EXPECT_EQ(t.process.begin()->second, "service llm");
  EXPECT_EQ(t.threads_of(t.pid_of("service llm")), (std::vector<std::string>{"requests", "requests (2)"}));
  EXPECT_GE(t.pid_of("scheduler"), 0);
  EXPECT_EQ(t.threads_of(t.pid_of("GPU 0 (H100-SXM5)"))[1], "SM partition p0");
}

TEST(ChromeTraceAnnotations, FlowArrowsLinkARequestToTheSlicesThatServedIt) {
  ChromeTraceStats stats;
  const ParsedTrace t = write_and_parse(testing::make_test_log(), {}, &stats, make_notes());
  EXPECT_EQ(stats.flows_written, 3u);
  EXPECT_EQ(t.phase_count.at("s"), 3 + 5);  // and one per copy (CopiesGetAnArrowFromSourceToDestination)
  EXPECT_EQ(t.phase_count.at("f"), 3 + 5);
  // Each arrow ends where a slice of its activity starts, on that slice's thread.
  std::map<uint64_t, json> starts, ends;
  std::set<std::tuple<int, int, double>> slice_starts;
  for (const json& e : t.doc.at("traceEvents")) {
    if (e.at("ph") == "s" && e.at("cat") == "request") starts[e.at("id").get<uint64_t>()] = e;
    if (e.at("ph") == "f" && e.at("cat") == "request") ends[e.at("id").get<uint64_t>()] = e;
    if (e.at("ph") == "X")
      slice_starts.insert({e.at("pid").get<int>(), e.at("tid").get<int>(), e.at("ts").get<double>()});
  }
  ASSERT_EQ(ends.size(), 3u);
  for (const auto& [id, f] : ends) {
    EXPECT_EQ(f.at("bp"), "e");
    EXPECT_TRUE(slice_starts.contains({f.at("pid").get<int>(), f.at("tid").get<int>(), f.at("ts").get<double>()}))
        << f.dump();
    EXPECT_EQ(starts.at(id).at("pid"), t.pid_of("service llm"));
  }
  // req 1 -> gemm at 0 on gpu0 "kernels".
  EXPECT_EQ(ends.at(1).at("pid"), t.pid_of("GPU 0 (H100-SXM5)"));
  EXPECT_EQ(ends.at(1).at("ts"), 0.0);
}

TEST(ChromeTraceAnnotations, CountersLandOnTheirNode) {
  const ParsedTrace t = write_and_parse(testing::make_test_log(), {}, nullptr, make_notes());
  int memory = 0, queue = 0;
  for (const json& e : t.doc.at("traceEvents")) {
    if (e.at("ph") != "C") continue;
    if (e.at("name") == "memory used") {
      ++memory;
      EXPECT_EQ(e.at("pid"), t.pid_of("GPU 1 (H100-SXM5)"));
      EXPECT_TRUE(e.at("args").contains("GB"));
    }
    if (e.at("name") == "queue") {
      ++queue;
      EXPECT_EQ(e.at("pid"), t.pid_of("scheduler"));
    }
  }
  EXPECT_EQ(memory, 2);
  EXPECT_EQ(queue, 1);
}

TEST(ChromeTraceAnnotations, CutActivitiesLoseTheirArrowsAndBadCountersAreRefused) {
  ChromeTraceStats stats;
  // gemm and h2d (first by start, id) are written; the cut is attn's start (1 µs), so both requests
  // stay, and only req 1's arrow to gemm has a written end.
  write_and_parse(testing::make_test_log(), {.max_records = 2}, &stats, make_notes());
  EXPECT_EQ(stats.flows_written, 1u);
  TraceAnnotations bad = make_notes();
  bad.counters[0].samples = {{Time::us(2), 1}, {Time::us(1), 2}};
  std::ostringstream out;
  EXPECT_THROW(write_chrome_trace(out, testing::make_test_log(), {}, bad), std::invalid_argument);
  bad = make_notes();
  bad.counters[0].unit.clear();
  EXPECT_THROW(write_chrome_trace(out, testing::make_test_log(), {}, bad), std::invalid_argument);
}

// Activity args: added to the platform's own on that activity's slice only; an activity named
// twice is refused.
TEST(ChromeTraceAnnotations, ActivityArgsLandOnTheirSliceAfterThePlatformsOwn) {
  TraceAnnotations notes;
  notes.activity_args.push_back({.activity = 2, .numbers = {{"solo_s", 5e-7}, {"slowdown", 2.0}}});
  notes.activity_args.push_back({.activity = 99, .numbers = {{"slowdown", 3.0}}});  // not in the log: skipped
  const ParsedTrace t = write_and_parse(testing::make_test_log(), {}, nullptr, notes);
  int with = 0;
  for (const json* e : t.activity_slices()) {
    const json& a = e->at("args");
    if (a.at("id") == 2) {
      ++with;
      EXPECT_EQ(a.at("solo_s").get<double>(), 5e-7);
      EXPECT_EQ(a.at("slowdown").get<double>(), 2.0);
      EXPECT_TRUE(a.contains("flops"));  // the platform's args stay
    } else {
      EXPECT_FALSE(a.contains("slowdown")) << e->dump();
    }
  }
  EXPECT_EQ(with, 1);
  notes.activity_args.push_back({.activity = 2, .numbers = {}});
  std::ostringstream out;
  EXPECT_THROW(write_chrome_trace(out, testing::make_test_log(), {}, notes), std::invalid_argument);
}

// Every copy with a duration gets one arrow, id = its record id, from its slice on the source's
// "copies out" thread to its slice on the destination's "copies in" thread, both at its start.
TEST(ChromeTrace, CopiesGetAnArrowFromSourceToDestination) {
  ChromeTraceStats stats;
  const ParsedTrace t = write_and_parse(testing::make_test_log(), {}, &stats);
  EXPECT_EQ(stats.copy_flows_written, 5u);
  std::map<uint64_t, json> starts, ends;
  std::map<uint64_t, std::vector<json>> slices;  // record id -> its "X" slices
  for (const json& e : t.doc.at("traceEvents")) {
    if ((e.at("ph") == "s" || e.at("ph") == "f") && e.at("cat") == "copy")
      (e.at("ph") == "s" ? starts : ends)[e.at("id").get<uint64_t>()] = e;
    if (e.at("ph") == "X" && e.at("cat") == "copy") slices[e.at("args").at("id").get<uint64_t>()].push_back(e);
  }
  ASSERT_EQ(starts.size(), 5u);
  ASSERT_EQ(ends.size(), 5u);
  for (const auto& [id, s] : starts) {
    const json& f = ends.at(id);
    EXPECT_EQ(f.at("bp"), "e");
    EXPECT_EQ(s.at("name"), f.at("name"));
    const std::vector<json>& both = slices.at(id);
    ASSERT_EQ(both.size(), 2u);
    const auto on = [&](const json& flow, const char* thread) {
      bool found = false;
      for (const json& x : both)
        found = found || (x.at("pid") == flow.at("pid") && x.at("tid") == flow.at("tid") && x.at("ts") == flow.at("ts") &&
                          t.thread.at({x.at("pid").get<int>(), x.at("tid").get<int>()}).starts_with(thread));
      return found;
    };
    EXPECT_TRUE(on(s, "copies out")) << s.dump();
    EXPECT_TRUE(on(f, "copies in")) << f.dump();
  }
  EXPECT_EQ(starts.at(8).at("pid"), t.pid_of("host0"));  // h2d: host0 -> gpu0
  EXPECT_EQ(ends.at(8).at("pid"), t.pid_of("GPU 0 (H100-SXM5)"));
}

TEST(ChromeTraceAnnotations, PhasesGetTheFirstProcess) {
  TraceAnnotations notes = make_notes();
  notes.phases = {{"strategy sequential", Time::zero(), Time::us(6)}, {"strategy interdecom (d=2)", Time::us(7), Time::us(10)}};
  const ParsedTrace t = write_and_parse(testing::make_test_log(), {}, nullptr, notes);
  EXPECT_EQ(t.process.begin()->second, "phases");
  EXPECT_EQ(t.threads_of(t.pid_of("phases")), std::vector<std::string>{"phases"});
  std::vector<std::pair<std::string, double>> seen;
  for (const json& e : t.doc.at("traceEvents"))
    if (e.at("ph") == "X" && e.at("cat") == "phase") {
      EXPECT_EQ(e.at("pid"), t.pid_of("phases"));
      seen.emplace_back(e.at("name"), e.at("dur").get<double>());
    }
  EXPECT_EQ(seen, (std::vector<std::pair<std::string, double>>{{"strategy sequential", 6.0},
                                                               {"strategy interdecom (d=2)", 3.0}}));
  notes.phases.push_back({"backwards", Time::us(3), Time::us(2)});
  std::ostringstream out;
  EXPECT_THROW(write_chrome_trace(out, testing::make_test_log(), {}, notes), std::invalid_argument);
}

// A named track replaces the kernel's platform thread (its partition stays in the args).
TEST(ChromeTraceAnnotations, NamedTracksHoldTheirKernels) {
  TraceAnnotations notes;
  notes.activity_args.push_back({.activity = 2, .numbers = {}, .track = "LS kernels"});
  notes.activity_args.push_back({.activity = 1, .numbers = {}, .track = "BE kernels"});
  const ParsedTrace t = write_and_parse(testing::make_test_log(), {}, nullptr, notes);
  const std::vector<std::string> threads = t.threads_of(t.pid_of("GPU 0 (H100-SXM5)"));
  EXPECT_EQ(std::vector<std::string>(threads.begin(), threads.begin() + 2),
            (std::vector<std::string>{"BE kernels", "LS kernels"}));
  EXPECT_EQ(std::count(threads.begin(), threads.end(), "SM partition p0"), 0);
  EXPECT_EQ(std::count(threads.begin(), threads.end(), "kernels"), 0);
  for (const json& e : t.doc.at("traceEvents"))
    if (e.at("ph") == "X" && e.at("name") == "attn, \"fused\"") {
      EXPECT_EQ(t.thread.at({e.at("pid").get<int>(), e.at("tid").get<int>()}), "LS kernels");
      EXPECT_EQ(e.at("args").at("partition"), "p0");
    }
}

// A cut trace keeps the args and the named track of the activities it writes (gemm and h2d at
// max_records = 2), and nothing of those it leaves out (attn).
TEST(ChromeTraceAnnotations, ACutTraceKeepsTheArgsOfWhatItWrites) {
  TraceAnnotations notes;
  notes.activity_args.push_back({.activity = 2, .numbers = {{"slowdown", 3.0}}, .track = "LS kernels"});
  notes.activity_args.push_back({.activity = 1, .numbers = {{"slowdown", 2.0}}, .track = "BE kernels"});
  notes.activity_args.push_back({.activity = 8, .numbers = {{"wait_s", 0.5}}});
  const ParsedTrace t = write_and_parse(testing::make_test_log(), {.max_records = 2}, nullptr, notes);
  const std::vector<std::string> threads = t.threads_of(t.pid_of("GPU 0 (H100-SXM5)"));
  EXPECT_EQ(std::count(threads.begin(), threads.end(), "BE kernels"), 1);
  EXPECT_EQ(std::count(threads.begin(), threads.end(), "LS kernels"), 0);
  int slices = 0;
  for (const json* e : t.activity_slices()) {
    const json& a = e->at("args");
    if (a.at("id") == 1) {
      ++slices;
      EXPECT_EQ(a.at("slowdown").get<double>(), 2.0);
      EXPECT_EQ(t.thread.at({e->at("pid").get<int>(), e->at("tid").get<int>()}), "BE kernels");
    }
    if (a.at("id") == 8) {
      ++slices;
      EXPECT_EQ(a.at("wait_s").get<double>(), 0.5);
    }
    EXPECT_NE(a.at("id"), 2) << e->dump();
  }
  EXPECT_EQ(slices, 3);  // gemm's slice, h2d's on host0 and on gpu0
}

// 20000 back-to-back kernels of 1 µs, each with a request and a counter sample: a limit of 500
// activities keeps the file to a few per cent of the whole, and nothing in it lies past the cut.
TEST(ChromeTraceAnnotations, TraceLimitBoundsTheWholeFile) {
  ActivityLog log;
  log.gpu_models = {"H200"};
  TraceAnnotations notes;
  TraceCounter sms{"gpu0", "LS kernel SMs", "SMs", {}};
  for (uint64_t i = 0; i < 20000; ++i) {
    const auto at = static_cast<int64_t>(i);
    log.records.push_back(testing::make_record(i + 1, ActivityKind::kernel, "k", "gpu0", "gpu0", at, at + 1));
    notes.requests.push_back({"LS requests", "req", Time::us(at), Time::us(at + 1), {i + 1}});
    sms.samples.push_back({Time::us(at), static_cast<double>(i % 132)});
  }
  notes.counters.push_back(std::move(sms));
  std::ostringstream whole, cut;
  write_chrome_trace(whole, log, {.max_records = 0}, notes);
  const ChromeTraceStats stats = write_chrome_trace(cut, log, {.max_records = 500}, notes);
  EXPECT_TRUE(stats.truncated);
  EXPECT_EQ(stats.records_written, 500u);
  EXPECT_EQ(stats.flows_written, 500u);
  EXPECT_LT(cut.str().size() * 20, whole.str().size()) << cut.str().size() << " vs " << whole.str().size();
  const json doc = json::parse(cut.str());
  size_t counters = 0, requests = 0;
  for (const json& e : doc.at("traceEvents")) {
    if (e.at("ph") == "i") continue;
    if (e.contains("ts")) {
      EXPECT_LT(e.at("ts").get<double>(), 500.0) << e.dump();
    }
    counters += e.at("ph") == "C";
    requests += e.at("ph") == "X" && e.at("cat") == "request";
  }
  EXPECT_EQ(counters, 500u);
  EXPECT_EQ(requests, 500u);
  EXPECT_NE(doc.at("metadata").at("parallax").at("note").get<std::string>().find("output.trace_limit"), std::string::npos);
}

TEST(TraceTracks, LaneRuleReusesTheLowestFreeLane) {
  // Intervals (µs): [0,4) [1,2) [2,3) [3,6) -> lanes 1 2 2 2 (the lane of [1,2) frees at 2).
  ActivityLog log;
  log.gpu_models = {""};
  const int64_t spans[4][2] = {{0, 4}, {1, 2}, {2, 3}, {3, 6}};
  for (uint64_t i = 0; i < 4; ++i) {
    log.records.push_back(testing::make_record(i + 1, ActivityKind::kernel, "k", "gpu0", "gpu0",
                                               spans[i][0], spans[i][1]));
  }
  std::vector<const ActivityRecord*> records;
  for (const auto& r : log.records) records.push_back(&r);
  const TraceTracks tracks = layout_trace_tracks(log, records);
  ASSERT_EQ(tracks.processes.size(), 1u);
  EXPECT_EQ(tracks.processes[0].name, "GPU 0");
  ASSERT_EQ(tracks.processes[0].threads.size(), 2u);
  EXPECT_EQ(tracks.places[0][0].tid, 1);
  EXPECT_EQ(tracks.places[1][0].tid, 2);
  EXPECT_EQ(tracks.places[2][0].tid, 2);
  EXPECT_EQ(tracks.places[3][0].tid, 2);
}

TEST(TraceTracks, GpuIndex) {
  EXPECT_EQ(gpu_index("gpu12"), 12);
  EXPECT_EQ(gpu_index("gpu"), -1);
  EXPECT_EQ(gpu_index("gpu1x"), -1);
  EXPECT_EQ(gpu_index("gpu-1"), -1);
  EXPECT_EQ(gpu_index("host0"), -1);
}

TEST(LinkActivity, BytesAndBusyTime) {
  const auto links = link_activity(testing::make_test_log());
  ASSERT_EQ(links.size(), 3u);
  EXPECT_EQ(links[0].bytes, 3.0 * (1 << 20));
  EXPECT_EQ(links[0].transfers, 3u);
  EXPECT_EQ(links[0].busy, Time::us(5 + 1));  // [1,6) and [7,8)
  EXPECT_EQ(links[2].busy, Time::us(3));
}

// The writer's text, byte for byte: every kind of event, a name that needs escaping, nested args
// and the metadata object.
TEST(TraceEventWriter, WritesExactlyThisText) {
  std::ostringstream out;
  TraceEventWriter w(out);
  w.process_name(1, "GPU 0");
  w.thread_sort_index(1, 2, 3);
  w.complete(1, 2, "copy", "say \"hi\"\n", Time::ps(1234567), Time::ps(-5),
             TraceArgs().integer("id", -7).text("src", "gpu0").fixed("GB/s", 12.3456, 3));
  w.async_begin(2, 0, "collective", "ar", 18446744073709551615u, Time::zero(), TraceArgs());
  w.async_end(2, 0, "collective", "ar", 9, Time::us(2));
  w.flow_start(1, 1, "copy", "c", 4, Time::ps(1));
  w.flow_end(1, 2, "copy", "c", 4, Time::ps(1));
  w.counter(3, "active", Time::ms(1), TraceArgs().integer("flows", 2).number("x", 0.1));
  w.global_instant("cut", Time::ps(999999), TraceArgs().object("o", TraceArgs().integer("a", 1)));
  w.finish(TraceArgs().text("note", "n"));
  EXPECT_EQ(out.str(),
            "{\"traceEvents\":[\n"
            "{\"ph\":\"M\",\"pid\":1,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"GPU 0\"}},\n"
            "{\"ph\":\"M\",\"pid\":1,\"tid\":2,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":3}},\n"
            "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"name\":\"say \\\"hi\\\"\\n\",\"cat\":\"copy\",\"ts\":1.234567,"
            "\"dur\":-0.000005,\"args\":{\"id\":-7,\"src\":\"gpu0\",\"GB/s\":12.346}},\n"
            "{\"ph\":\"b\",\"pid\":2,\"tid\":0,\"name\":\"ar\",\"cat\":\"collective\",\"id\":18446744073709551615,"
            "\"ts\":0.000000},\n"
            "{\"ph\":\"e\",\"pid\":2,\"tid\":0,\"name\":\"ar\",\"cat\":\"collective\",\"id\":9,\"ts\":2.000000},\n"
            "{\"ph\":\"s\",\"pid\":1,\"tid\":1,\"name\":\"c\",\"cat\":\"copy\",\"id\":4,\"ts\":0.000001},\n"
            "{\"ph\":\"f\",\"pid\":1,\"tid\":2,\"name\":\"c\",\"cat\":\"copy\",\"id\":4,\"ts\":0.000001,\"bp\":\"e\"},\n"
            "{\"ph\":\"C\",\"pid\":3,\"tid\":0,\"name\":\"active\",\"ts\":1000.000000,\"args\":{\"flows\":2,\"x\":0.1}},\n"
            "{\"ph\":\"i\",\"pid\":0,\"tid\":0,\"name\":\"cut\",\"s\":\"g\",\"ts\":0.999999,\"args\":{\"o\":{\"a\":1}}}\n"
            "],\n\"displayTimeUnit\":\"ns\",\n\"metadata\":{\"note\":\"n\"}\n}\n");
  EXPECT_EQ(json_string("caf\xc3\xa9 \x01"), "\"caf\xc3\xa9 \\u0001\"");
  EXPECT_EQ(json_string("bad \xff"), "\"bad \xef\xbf\xbd\"");
}

// A fixed-precision argument is fmt's "{:.Nf}" text: the exact value rounded, ties to even.
TEST(TraceEventWriter, FixedArgumentsRoundAsFmtDoes) {
  std::vector<double> values = {0.0, -0.0, 0.125, 0.375, 2.5e-3, 1.0005, -1.0005, 1e-300, 123456789.0125, 1e22, -7.5};
  for (int k = -4000; k <= 4000; ++k) {
    values.push_back(k / 8.0);
    values.push_back(k / 1024.0);
    values.push_back(k * 0.001);
    values.push_back(k * 1.37e5 / 3.0);
  }
  uint64_t x = 0x2545f4914f6cdd1du;
  for (int i = 0; i < 20000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    double v;
    const uint64_t bits = (x & 0x800fffffffffffffu) | (((x >> 52) % 140 + 960) << 52);  // 2^-63 .. 2^76
    std::memcpy(&v, &bits, sizeof v);
    values.push_back(v);
  }
  for (double v : values)
    for (int d : {0, 2, 3, 6}) {
      const std::string want = fmt::format("{{\"v\":{:.{}f}}}", v, d);
      ASSERT_EQ(TraceArgs().fixed("v", v, d).json(), want) << v << " at " << d;
    }
}

}  // namespace
}  // namespace parallax

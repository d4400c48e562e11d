// File: sim/platform/completion_calendar_test.cpp
// The calendar against a plain ordered set of (key, id): after any mix of inserts, re-keys and
// removals, with many ids on one key (a ring step) or all keys distinct, take_upto() gives what
// repeated pops of the smallest (key, id) give, and leaves the rest in order.
#include "sim/platform/completion_calendar.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "sim/engine/random_streams.h"

namespace parallax {
namespace {

struct PlaceIn {
  std::vector<CalendarPlace>* places;
  CalendarPlace& operator()(uint32_t id) const { return (*places)[id]; }
};

using Reference = std::set<std::pair<int64_t, uint32_t>>;

void set_both(CompletionCalendar<PlaceIn>& cal, Reference& ref, std::vector<int64_t>& key_of, uint32_t id,
              int64_t key) {
  if (key_of[id] >= 0) ref.erase({key_of[id], id});
  ref.insert({key, id});
  key_of[id] = key;
  cal.set(id, key);
}

void remove_both(CompletionCalendar<PlaceIn>& cal, Reference& ref, std::vector<int64_t>& key_of, uint32_t id) {
  if (key_of[id] >= 0) ref.erase({key_of[id], id});
  key_of[id] = -1;
  cal.remove(id);
}

// What take_upto(bound) must give: the reference's entries up to bound, removed.
std::vector<uint32_t> take_reference(Reference& ref, std::vector<int64_t>& key_of, int64_t bound) {
  std::vector<uint32_t> out;
  while (!ref.empty() && ref.begin()->first <= bound) {
    out.push_back(ref.begin()->second);
    key_of[ref.begin()->second] = -1;
    ref.erase(ref.begin());
  }
  return out;
}

TEST(CompletionCalendar, TakeUptoIsRepeatedPops) {
  RandomStreams streams(23);
  RandomStream& rng = streams.stream("calendar");
  for (uint32_t n : {1u, 2u, 5u, 17u, 200u, 513u}) {
    for (uint64_t spread : {1u, 3u, 50u, 1000000u}) {
      std::vector<CalendarPlace> places(n);
      CompletionCalendar<PlaceIn> cal(PlaceIn{&places});
      Reference ref;
      std::vector<int64_t> key_of(n, -1);
      for (int round = 0; round < 20; ++round) {
        // A step's worth of changes: ids in ascending order (a ring step) or at random.
        const bool ascending = round % 2 == 0;
        for (uint32_t i = 0; i < n; ++i) {
          const uint32_t id = ascending ? i : static_cast<uint32_t>(rng.uniform_int(n));
          const uint64_t what = rng.uniform_int(10);
          const auto key = 100 * round + static_cast<int64_t>(rng.uniform_int(spread));
          if (what < 7) set_both(cal, ref, key_of, id, key);
          else if (what < 9) remove_both(cal, ref, key_of, id);
          // (else: leave it as it is)
        }
        ASSERT_EQ(cal.empty(), ref.empty());
        if (!ref.empty()) {
          ASSERT_EQ(cal.top_key(), ref.begin()->first);
        }
        const int64_t bound = ref.empty() ? 0 : ref.begin()->first + static_cast<int64_t>(rng.uniform_int(spread + 1));
        std::vector<uint32_t> got;
        cal.take_upto(bound, got);
        const std::vector<uint32_t> expect = take_reference(ref, key_of, bound);
        ASSERT_EQ(got, expect) << "n " << n << ", spread " << spread << ", round " << round;
        for (uint32_t id : got) EXPECT_EQ(places[id].bucket, -1);
      }
      // What is left comes out in order, and empties the calendar.
      std::vector<uint32_t> got;
      cal.take_upto(INT64_MAX, got);
      EXPECT_EQ(got, take_reference(ref, key_of, INT64_MAX));
      EXPECT_TRUE(cal.empty());
    }
  }
}

// A ring step: every id on one key, set in ascending order; then all of them move to the next
// key, and a take below that key takes none.
TEST(CompletionCalendar, OneKeyForAll) {
  constexpr uint32_t n = 512;
  std::vector<CalendarPlace> places(n);
  CompletionCalendar<PlaceIn> cal(PlaceIn{&places});
  for (uint32_t id = 0; id < n; ++id) cal.set(id, 1000);
  std::vector<uint32_t> got;
  cal.take_upto(999, got);
  EXPECT_TRUE(got.empty());
  for (uint32_t id = n; id-- > 0;) cal.set(id, 2000);  // descending: taken ascending all the same
  EXPECT_EQ(cal.top_key(), 2000);
  cal.take_upto(2000, got);
  ASSERT_EQ(got.size(), n);
  for (uint32_t id = 0; id < n; ++id) EXPECT_EQ(got[id], id);
  EXPECT_TRUE(cal.empty());
}

}  // namespace
}  // namespace parallax

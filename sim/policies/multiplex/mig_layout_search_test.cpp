// File: sim/policies/multiplex/mig_layout_search_test.cpp
// The rigid-layout search returns only layouts the MIG validator accepts, and gives the heavier
// service the bigger instance.
#include "sim/policies/multiplex/mig_layout_search.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "sim/policies/multiplex/multiplex_test_fixtures.h"
#include "sim/platform/test_machines.h"

namespace parallax {
namespace {

using namespace multiplex_test;

TEST(MigLayoutSearch, ReturnsALegalLayoutWithOneInstancePerService) {
  const GpuPartitioning parts = test_machines::h200_partitioning();
  for (int n = 1; n <= 7; ++n) {
    std::vector<ServiceModel> svcs;
    for (int i = 0; i < n; ++i) svcs.push_back(service(fmt::format("s{}", i), 100.0 * (i + 1), 8, 50));
    const MigSearchResult r = best_mig_layout(parts, gpu_of(parts).rates, svcs);
    ASSERT_EQ(r.placements.size(), static_cast<size_t>(n));
    EXPECT_NO_THROW(check_mig_layout(parts, r.placements));
    EXPECT_GT(r.layouts_checked, 0);
    EXPECT_GT(r.score, 0);
  }
}

TEST(MigLayoutSearch, OneServiceTakesTheWholeGpu) {
  const GpuPartitioning parts = test_machines::h200_partitioning();
  const std::vector<ServiceModel> svcs{service("a", 100, 8, 50)};
  EXPECT_EQ(best_mig_layout(parts, gpu_of(parts).rates, svcs).placements[0].profile, "7g.141gb");
}

TEST(MigLayoutSearch, HeavierServiceGetsTheBiggerInstance) {
  const GpuPartitioning parts = test_machines::h200_partitioning();
  const std::vector<ServiceModel> svcs{service("light", 50, 8, 50), service("heavy", 5000, 8, 50)};
  const MigSearchResult r = best_mig_layout(parts, gpu_of(parts).rates, svcs);
  EXPECT_GT(r.instances[1].sms, r.instances[0].sms);
}

// mig_sizing: peak sets sizing_rate_per_s: two services with the same mean rate, the one sized for
// a higher (peak) rate gets the bigger instance; without it the layout follows the mean rates.
TEST(MigLayoutSearch, SizingRateOverridesTheMeanRate) {
  const GpuPartitioning parts = test_machines::h200_partitioning();
  std::vector<ServiceModel> svcs{service("steady", 1000, 8, 50), service("bursty", 1000, 8, 50)};
  svcs[0].sizing_rate_per_s = 1000;
  svcs[1].sizing_rate_per_s = 8000;
  const MigSearchResult peak = best_mig_layout(parts, gpu_of(parts).rates, svcs);
  EXPECT_GT(peak.instances[1].sms, peak.instances[0].sms);
  svcs[0].sizing_rate_per_s = 8000;
  svcs[1].sizing_rate_per_s = 1000;
  const MigSearchResult swapped = best_mig_layout(parts, gpu_of(parts).rates, svcs);
  EXPECT_GT(swapped.instances[0].sms, swapped.instances[1].sms);
}

TEST(MigLayoutSearch, TooManyServicesIsAnError) {
  const GpuPartitioning parts = test_machines::h200_partitioning();
  std::vector<ServiceModel> svcs;
  for (int i = 0; i < 8; ++i) svcs.push_back(service(fmt::format("s{}", i), 10, 4, 50));
  EXPECT_THROW(best_mig_layout(parts, gpu_of(parts).rates, svcs), std::invalid_argument);
}

// Five light services each get a 1g.18gb (16.5 GiB); with 20 GiB of weights a service
// needs a 2g.35gb at least, and weights above the 7g's 131 GiB fit nowhere.
TEST(MigLayoutSearch, ServiceGetsOnlyInstancesItsWeightsFitIn) {
  const GpuPartitioning parts = test_machines::h200_partitioning();
  std::vector<ServiceModel> svcs;
  for (int i = 0; i < 5; ++i) svcs.push_back(service(fmt::format("s{}", i), 100, 4, 50));
  svcs[2].memory_bytes = 20.0 * 1024 * 1024 * 1024;
  const MigSearchResult r = best_mig_layout(parts, gpu_of(parts).rates, svcs);
  EXPECT_NO_THROW(check_mig_layout(parts, r.placements));
  EXPECT_GE(static_cast<double>(r.instances[2].memory_bytes), svcs[2].memory_bytes);
  for (size_t i = 0; i < svcs.size(); ++i) {
    if (i == 2) continue;
    EXPECT_EQ(r.placements[i].profile, "1g.18gb") << i;
  }
  svcs[2].memory_bytes = 132.0 * 1024 * 1024 * 1024;
  EXPECT_THROW(best_mig_layout(parts, gpu_of(parts).rates, svcs), std::invalid_argument);
  // Four services that each need a 2g (2 compute slices) do not fit in 7 slices.
  for (ServiceModel& svc : svcs) svc.memory_bytes = 20.0 * 1024 * 1024 * 1024;
  svcs.pop_back();
  EXPECT_THROW(best_mig_layout(parts, gpu_of(parts).rates, svcs), std::invalid_argument);
}

}  // namespace
}  // namespace parallax

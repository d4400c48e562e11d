// File: sim/workload/alibaba_gpu_trace_test.cpp
#include "sim/workload/alibaba_gpu_trace.h"

#include <gtest/gtest.h>

#include "sim/workload/workload_test_files.h"

namespace parallax {
namespace {

using testing_files::input_error_of;
using testing_files::scratch_file;
using testing_files::source_path;

const char* const kHeader =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n";

// Expected values computed with awk from the shipped samples (traces/alibaba_openb/README.md).
TEST(AlibabaGpuTrace, ShippedPodSample) {
  const auto pods = read_alibaba_pods(source_path("traces/alibaba_openb/openb_pod_list_default_every8.csv"));
  ASSERT_EQ(pods.size(), 1019u);
  int by_gpus[9] = {};
  int64_t milli = 0;
  for (const AlibabaPod& p : pods) {
    ASSERT_LE(p.num_gpu, 8);
    ++by_gpus[p.num_gpu];
    milli += p.gpu_milli;
    EXPECT_TRUE(p.has_times);
  }
  EXPECT_EQ(by_gpus[0], 139);
  EXPECT_EQ(by_gpus[1], 871);
  EXPECT_EQ(by_gpus[4], 2);
  EXPECT_EQ(by_gpus[8], 7);
  EXPECT_EQ(milli, 706330);
  EXPECT_EQ(pods.front().name, "openb-pod-0000");
  EXPECT_EQ(pods.front().deletion_s, 12537496);
  EXPECT_EQ(pods.front().qos, "LS");
  EXPECT_EQ(pods.back().name, "openb-pod-8144");
  EXPECT_EQ(pods.back().memory_mib, 77824u);
  EXPECT_EQ(pods.back().creation_s, 12896458);
  EXPECT_EQ(pods.back().line, 1020);
}

TEST(AlibabaGpuTrace, ShippedFiveColumnSampleHasNoTimes) {
  const auto pods = read_alibaba_pods(source_path("traces/alibaba_openb/openb_pod_list_multigpu50_head40.csv"));
  ASSERT_EQ(pods.size(), 40u);
  EXPECT_FALSE(pods[0].has_times);
  EXPECT_EQ(pods[0].qos, "");
}

TEST(AlibabaGpuTrace, ShippedNodeSample) {
  const auto nodes = read_alibaba_nodes(source_path("traces/alibaba_openb/openb_node_list_gpu_node_every8.csv"));
  ASSERT_EQ(nodes.size(), 152u);
  int gpus = 0;
  uint64_t cpu = 0;
  for (const AlibabaNode& n : nodes) gpus += n.gpus, cpu += n.cpu_milli;
  EXPECT_EQ(gpus, 770);
  EXPECT_EQ(cpu, 13616000u);
  EXPECT_EQ(nodes.front().model, "P100");
  EXPECT_EQ(nodes.back().sn, "openb-node-1208");
  EXPECT_EQ(nodes.back().model, "T4");
}

TEST(AlibabaGpuTrace, GpuSpecListsModels) {
  const auto pods = read_alibaba_pods(
      scratch_file("spec.csv", std::string(kHeader) + "p,1000,1024,1,250,T4|V100M16,BE,Pending,5,9,\n"));
  ASSERT_EQ(pods.size(), 1u);
  EXPECT_EQ(pods[0].gpu_spec, (std::vector<std::string>{"T4", "V100M16"}));
  EXPECT_EQ(pods[0].gpu_milli, 250);
}

TEST(AlibabaGpuTrace, MalformedPodRowsNameFileLineAndColumn) {
  const auto bad = [](const std::string& row) {
    const std::string path = scratch_file("bad_pods.csv", std::string(kHeader) + "ok,1,1,1,500,,LS,Running,0,1,0\n" + row);
    return input_error_of([&] { (void)read_alibaba_pods(path); });
  };

  EXPECT_NE(bad("p,1,1,1,1001,,LS,Running,0,1,0\n").find("bad_pods.csv:3:"), std::string::npos);
  EXPECT_NE(bad("p,1,1,1,1001,,LS,Running,0,1,0\n").find("gpu_milli"), std::string::npos);
  EXPECT_NE(bad("p,1,1,0,300,,LS,Running,0,1,0\n").find("num_gpu 0"), std::string::npos);
  EXPECT_NE(bad("p,1,1,1,0,,LS,Running,0,1,0\n").find("gpu_milli 0"), std::string::npos);
  EXPECT_NE(bad("p,1,1,2,500,,LS,Running,0,1,0\n").find("whole GPUs"), std::string::npos);
  EXPECT_NE(bad("p,1,1,1,500,T4||A10,LS,Running,0,1,0\n").find("gpu_spec"), std::string::npos);
  EXPECT_NE(bad("p,1,1,1,500,,XX,Running,0,1,0\n").find("qos"), std::string::npos);
  EXPECT_NE(bad("p,1,1,1,500,,LS,Gone,0,1,0\n").find("pod_phase"), std::string::npos);
  EXPECT_NE(bad("p,1,1,1,500,,LS,Running,5,4,5\n").find("before creation_time"), std::string::npos);
  EXPECT_NE(bad("p,1,1,1,500,,LS,Running,5,9,4\n").find("scheduled_time"), std::string::npos);
  EXPECT_NE(bad("p,-1,1,1,500,,LS,Running,0,1,0\n").find("cpu_milli"), std::string::npos);
  EXPECT_NE(bad("p,1,1,1,500,,LS,Running,0,1\n").find("bad_pods.csv:3:"), std::string::npos);
  EXPECT_NE(bad(",1,1,1,500,,LS,Running,0,1,0\n").find("name"), std::string::npos);
  EXPECT_NE(bad("p,1,1,2000,1000,,LS,Running,0,1,0\n").find("num_gpu"), std::string::npos);
}

TEST(AlibabaGpuTrace, BadHeadersAndEmptyFiles) {
  EXPECT_NE(input_error_of([&] { (void)read_alibaba_pods(scratch_file("h1.csv", "name,cpu_milli,memory_mib,num_gpu\n")); })
                .find("header has 4 columns"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] {
              (void)read_alibaba_pods(scratch_file("h2.csv", "name,cpu_milli,memory_mib,gpus,gpu_milli\np,1,1,1,1\n"));
            }).find("num_gpu"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] { (void)read_alibaba_pods(scratch_file("h3.csv", kHeader)); }).find("no data rows"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] { (void)read_alibaba_nodes(scratch_file("n0.csv", "")); }).find("n0.csv"),
            std::string::npos);
}

TEST(AlibabaGpuTrace, MalformedNodeRows) {
  const auto bad = [](const std::string& row) {
    const std::string path = scratch_file("bad_nodes.csv", "sn,cpu_milli,memory_mib,gpu,model\nn0,1,1,0,\n" + row);
    return input_error_of([&] { (void)read_alibaba_nodes(path); });
  };
  EXPECT_NE(bad("n1,1,1,0,T4\n").find("bad_nodes.csv:3:"), std::string::npos);
  EXPECT_NE(bad("n1,1,1,2,\n").find("empty model"), std::string::npos);
  EXPECT_NE(bad("n1,1,x,2,T4\n").find("memory_mib"), std::string::npos);
  EXPECT_NE(bad("n1,1,1,2\n").find("bad_nodes.csv:3:"), std::string::npos);
}

}  // namespace
}  // namespace parallax

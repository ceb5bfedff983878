// Nsight Compute CSV parsing and the generated verdict lines (grader profile), without a GPU.
#include <gtest/gtest.h>

#include "course/profile.hpp"
#include "kernel_metrics_fixture.hpp"

namespace {

using course::profile::KernelMetrics;
using test_fixture::metrics;

// The shape of `ncu --import R --csv --page details`: one row per kernel and metric.
std::string csv_for(const std::string& kernel, const std::string& id,
                    const std::vector<std::pair<std::string, std::string>>& metrics) {
  std::string s;
  for (const auto& [name, value] : metrics)
    s += "\"" + id + "\",\"4242\",\"bench\",\"127.0.0.1\",\"" + kernel +
         "\",\"1\",\"7\",\"(32, 8, 1)\",\"(256, 256, 1)\",\"0\",\"9.0\",\"Command line profiler "
         "metrics\",\"" +
         name + "\",\"\",\"" + value + "\"\n";
  return s;
}

const std::string kHeader =
    "==PROF== Connected to process 4242\n"
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel "
    "Name\",\"Context\",\"Stream\",\"Block "
    "Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric "
    "Unit\",\"Metric Value\"\n";

TEST(ProfileCsv, ParsesKernelsInOrderWithThousandsSeparators) {
  const std::string csv =
      kHeader +
      csv_for("lesson::kernel_naive(const float *, float *, int, int)", "0",
              {{"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", "91.5"},
               {"sm__throughput.avg.pct_of_peak_sustained_elapsed", "20.1"},
               {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "67,108,864"},
               {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "2,097,152"},
               {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "8,388,608"},
               {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "2,097,152"}}) +
      csv_for("lesson::kernel_tiled_padded(const float *, float *, int, int)", "1",
              {{"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", "88"}});
  const auto k = course::profile::parse_ncu_csv(csv);
  ASSERT_EQ(k.size(), 2u);
  EXPECT_EQ(k[0].kernel, "kernel_naive");
  EXPECT_DOUBLE_EQ(k[0].st_sectors_per_request(), 32.0);
  EXPECT_DOUBLE_EQ(k[0].ld_sectors_per_request(), 4.0);
  EXPECT_EQ(k[1].kernel, "kernel_tiled_padded");
  EXPECT_DOUBLE_EQ(k[1].memory_pct, 88);
  EXPECT_LT(k[1].compute_pct, 0);  // not reported stays negative
}

// Lesson 15 reads the launch's registers and theoretical occupancy beside the achieved one.
TEST(ProfileCsv, ReadsRegistersAndTheoreticalOccupancy) {
  const auto k = course::profile::parse_ncu_csv(
      kHeader + csv_for("ns::mix_channels(const float *, float *, const float *, long long)", "0",
                        {{"launch__registers_per_thread", "96"},
                         {"sm__maximum_warps_per_active_cycle_pct", "25"},
                         {"sm__warps_active.avg.pct_of_peak_sustained_active", "24.1"}}));
  ASSERT_EQ(k.size(), 1u);
  EXPECT_DOUBLE_EQ(k[0].registers, 96);
  EXPECT_DOUBLE_EQ(k[0].theoretical_occupancy_pct, 25);
  EXPECT_DOUBLE_EQ(k[0].occupancy_pct, 24.1);
}

TEST(ProfileCsv, RejectsTextWithoutHeader) {
  EXPECT_THROW(course::profile::parse_ncu_csv("==ERROR== ERR_NVGPUCTRPERM\n"), std::runtime_error);
}

// A lesson that registered no advice: the generic verdicts.
const char* const kNoAdvice = "99_no_such_lesson";

TEST(Verdict, NamesLimiterTwoMetricsAndNextExperiment) {
  using course::profile::verdict_line;
  const std::string strided_stores = verdict_line(metrics(92, 20, 4, 32, 0, 0), kNoAdvice);
  EXPECT_EQ(strided_stores.rfind("k is memory-bound because Memory Throughput is 92% of peak "
                                 "against 20% for Compute (SM)",
                                 0),
            0u)
      << strided_stores;
  EXPECT_NE(strided_stores.find("stores take 32.0 sectors per request"), std::string::npos)
      << strided_stores;
  EXPECT_NE(strided_stores.find("the next experiment would be to make its stores coalesced"),
            std::string::npos)
      << strided_stores;

  const std::string both = verdict_line(metrics(78, 10, 24, 24, 0, 0), kNoAdvice);
  EXPECT_NE(both.find("loads take 24.0 and its stores 24.0 sectors per request"), std::string::npos)
      << both;
  EXPECT_NE(both.find("in both the loads and the stores"), std::string::npos) << both;

  const std::string conflicted = verdict_line(metrics(55, 40, 4, 4, 31000, 1000), kNoAdvice);
  EXPECT_NE(conflicted.find("latency-bound"), std::string::npos) << conflicted;
  EXPECT_NE(conflicted.find("31.0 extra wavefronts per load"), std::string::npos) << conflicted;
  EXPECT_NE(conflicted.find("hit different banks"), std::string::npos) << conflicted;

  const std::string coalesced = verdict_line(metrics(90, 30, 4, 4, 10, 1000), kNoAdvice);
  EXPECT_NE(coalesced.find("memory-bound"), std::string::npos);
  EXPECT_NE(coalesced.find("the next experiment would be none at this geometry"), std::string::npos)
      << coalesced;
  EXPECT_EQ(coalesced.back(), '.');
}

// The generic advice names no lesson's remedy: those come from the lessons' folders.
TEST(Verdict, GenericAdviceNamesNoLessonsRemedy) {
  for (const KernelMetrics& m : {metrics(92, 20, 4, 32, 0, 0), metrics(78, 10, 24, 24, 0, 0),
                                 metrics(55, 40, 4, 4, 31000, 1000)}) {
    const std::string line = course::profile::verdict_line(m, kNoAdvice);
    for (const char* remedy : {"[32][33]", "structure of arrays", "shared tile", "tile in shared"})
      EXPECT_EQ(line.find(remedy), std::string::npos) << line;
  }
}

TEST(Verdict, LimiterRules) {
  EXPECT_EQ(course::profile::limiter(metrics(70, 30, 4, 4, 0, 0)), "memory");
  EXPECT_EQ(course::profile::limiter(metrics(30, 70, 4, 4, 0, 0)), "compute");
  EXPECT_EQ(course::profile::limiter(metrics(40, 35, 4, 4, 0, 0)), "latency");  // both low
}

}  // namespace

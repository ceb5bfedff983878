// Nsight Compute CSV parsing and the generated verdict lines (grader profile), without a GPU.
#include <gtest/gtest.h>

#include "course/profile.hpp"

namespace {

using course::profile::KernelMetrics;

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
      csv_for("transpose::transpose_naive(const float *, float *, int, int)", "0",
              {{"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", "91.5"},
               {"sm__throughput.avg.pct_of_peak_sustained_elapsed", "20.1"},
               {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "67,108,864"},
               {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "2,097,152"},
               {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "8,388,608"},
               {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "2,097,152"}}) +
      csv_for("transpose::transpose_tiled_padded(const float *, float *, int, int)", "1",
              {{"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", "88"}});
  const auto k = course::profile::parse_ncu_csv(csv);
  ASSERT_EQ(k.size(), 2u);
  EXPECT_EQ(k[0].kernel, "transpose_naive");
  EXPECT_DOUBLE_EQ(k[0].st_sectors_per_request(), 32.0);
  EXPECT_DOUBLE_EQ(k[0].ld_sectors_per_request(), 4.0);
  EXPECT_EQ(k[1].kernel, "transpose_tiled_padded");
  EXPECT_DOUBLE_EQ(k[1].memory_pct, 88);
  EXPECT_LT(k[1].compute_pct, 0);  // not reported stays negative
}

TEST(ProfileCsv, RejectsTextWithoutHeader) {
  EXPECT_THROW(course::profile::parse_ncu_csv("==ERROR== ERR_NVGPUCTRPERM\n"), std::runtime_error);
}

KernelMetrics metrics(double mem, double sm, double ld_spr, double st_spr, double conflicts,
                      double shared_ld) {
  KernelMetrics m;
  m.kernel = "k";
  m.memory_pct = mem;
  m.compute_pct = sm;
  m.ld_requests = m.st_requests = 100;
  m.ld_sectors = 100 * ld_spr;
  m.st_sectors = 100 * st_spr;
  m.bank_conflicts_ld = conflicts;
  m.bank_conflicts_st = 0;
  m.shared_ld_instructions = shared_ld;
  m.occupancy_pct = 80;
  return m;
}

TEST(Verdict, NamesLimiterTwoMetricsAndNextExperiment) {
  const std::string naive = course::profile::verdict_line(metrics(92, 20, 4, 32, 0, 0));
  EXPECT_EQ(
      naive.rfind(
          "k is memory-bound because Memory Throughput is 92% of peak against 20% for Compute (SM)",
          0),
      0u)
      << naive;
  EXPECT_NE(naive.find("stores take 32.0 sectors per request"), std::string::npos) << naive;
  EXPECT_NE(naive.find("the next experiment would be to stage a tile in shared memory"),
            std::string::npos);

  const std::string aos = course::profile::verdict_line(metrics(78, 10, 24, 24, 0, 0));
  EXPECT_NE(aos.find("loads take 24.0 and its stores 24.0 sectors per request"), std::string::npos)
      << aos;
  EXPECT_NE(aos.find("structure of arrays"), std::string::npos) << aos;

  const std::string unpadded = course::profile::verdict_line(metrics(55, 40, 4, 4, 31000, 1000));
  EXPECT_NE(unpadded.find("latency-bound"), std::string::npos) << unpadded;
  EXPECT_NE(unpadded.find("31.0 extra wavefronts per load"), std::string::npos) << unpadded;
  EXPECT_NE(unpadded.find("pad the shared tile"), std::string::npos);

  const std::string padded = course::profile::verdict_line(metrics(90, 30, 4, 4, 10, 1000));
  EXPECT_NE(padded.find("memory-bound"), std::string::npos);
  EXPECT_NE(padded.find("the next experiment would be none at this geometry"), std::string::npos)
      << padded;
  EXPECT_EQ(padded.back(), '.');
}

TEST(Verdict, LimiterRules) {
  EXPECT_EQ(course::profile::limiter(metrics(70, 30, 4, 4, 0, 0)), "memory");
  EXPECT_EQ(course::profile::limiter(metrics(30, 70, 4, 4, 0, 0)), "compute");
  EXPECT_EQ(course::profile::limiter(metrics(40, 35, 4, 4, 0, 0)), "latency");  // both low
}

}  // namespace

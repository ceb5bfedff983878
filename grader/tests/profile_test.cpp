// Nsight Compute CSV parsing and the generated verdict lines (grader profile), without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>

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

// As csv_for, with each metric's unit as ncu displays it (`--print-units auto`).
std::string csv_with_units(const std::string& kernel, const std::string& id,
                           const std::vector<std::array<std::string, 3>>& metrics) {
  std::string s;
  for (const auto& [name, unit, value] : metrics)
    s += "\"" + id + "\",\"4242\",\"bench\",\"127.0.0.1\",\"" + kernel +
         "\",\"1\",\"7\",\"(256, 1, 1)\",\"(32, 32, 1)\",\"0\",\"9.0\",\"Command line profiler "
         "metrics\",\"" +
         name + "\",\"" + unit + "\",\"" + value + "\"\n";
  return s;
}

// An FP32 product at 4096^3 as the H200 might report it: 2^36 fused multiply-adds in 4.0 ms,
// 0.2 GB of DRAM traffic, a peak of 128 FFMA per SM per cycle x 132 SMs = 16,896 at 1.98 GHz,
// 4.8 TB/s (the H200's FP32 lanes: WARMUP.md §1).
TEST(Roofline, PlacesAProductOnTheComputeSideInBaseUnits) {
  const std::string csv =
      kHeader +
      csv_with_units(
          "matmul_tiled::sgemm_warp_tiles(const float *, const float *, "
          "float *, int, int, int)",
          "0",
          {{{"gpu__time_duration.sum", "msecond", "4.00"},
            {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "Ginst", "68.719476736"},
            {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", "inst", "0"},
            {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", "inst", "0"},
            {"dram__bytes.sum", "Mbyte", "201.33"},
            {"sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained", "inst/cycle",
             "16896"},
            {"sm__cycles_elapsed.avg.per_second", "cycle/nsecond", "1.98"},
            {"dram__bytes.sum.peak_sustained", "byte/cycle", "1500"},
            {"dram__cycles_elapsed.avg.per_second", "Ghz", "3.2"}}});
  const auto k = course::profile::parse_ncu_csv(csv);
  ASSERT_EQ(k.size(), 1u);
  EXPECT_DOUBLE_EQ(k[0].duration_ns, 4.0e6);
  EXPECT_DOUBLE_EQ(k[0].fp32_flops(), 2 * 68.719476736e9);
  EXPECT_DOUBLE_EQ(k[0].dram_bytes, 201.33e6);
  EXPECT_DOUBLE_EQ(k[0].sm_cycles_per_second, 1.98e9);
  EXPECT_DOUBLE_EQ(k[0].dram_cycles_per_second, 3.2e9);
  course::profile::Roofline r{};
  ASSERT_TRUE(course::profile::roofline(k[0], r));
  EXPECT_NEAR(r.flops_per_second, 34.36e12, 0.01e12);       // 2^37 FLOP / 4 ms
  EXPECT_NEAR(r.peak_flops_per_second, 66.91e12, 0.01e12);  // 2 x 16,896 x 1.98 GHz
  EXPECT_NEAR(r.peak_dram_bytes_per_second, 4.8e12, 1e9);
  EXPECT_NEAR(r.intensity, 682.6, 0.1);
  EXPECT_GT(r.intensity, r.ridge());
  const std::string line = course::profile::roofline_line(k[0]);
  EXPECT_NE(line.find("sgemm_warp_tiles: 34.4 TFLOP/s of FP32"), std::string::npos) << line;
  EXPECT_NE(line.find("51% of the FP32 peak (66.9 TFLOP/s"), std::string::npos) << line;
  EXPECT_NE(line.find("right of the ridge point (13.9 FLOP/B): compute-bound"), std::string::npos)
      << line;
}

TEST(Roofline, ACopyKernelHasNoPlaceOnIt) {
  KernelMetrics copy;
  copy.kernel = "copy";
  copy.duration_ns = 1e5;
  copy.dram_bytes = 5e8;
  copy.peak_ffma_per_cycle = 16896;
  copy.sm_cycles_per_second = 1.98e9;
  copy.peak_dram_bytes_per_cycle = 1500;
  copy.dram_cycles_per_second = 3.2e9;
  copy.fadd = copy.fmul = copy.ffma = 0;  // no FP32 work
  EXPECT_EQ(course::profile::roofline_line(copy), "");
  copy.ffma = 1e6;
  copy.peak_ffma_per_cycle = -1;  // a roof ncu did not report
  EXPECT_EQ(course::profile::roofline_line(copy), "");
  copy.peak_ffma_per_cycle = 16896;
  EXPECT_NE(course::profile::roofline_line(copy).find("left of the ridge point"),
            std::string::npos);
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

// A memory-bound kernel whose DRAM traffic is far from DRAM's peak is busy on chip (the H200's
// sgemm_shared_tiles: Memory Throughput 86%, 13% of the FP32 peak): the advice is reuse, not
// fusion. Near DRAM's peak (a copy), nothing is left at this geometry.
TEST(Verdict, MemoryBoundOnChipOrInDram) {
  KernelMetrics m = metrics(86, 72, 4, 4, 20, 1000);
  m.duration_ns = 1e6;                 // 1 ms
  m.peak_dram_bytes_per_cycle = 1024;  // x 4.7 GHz: 4.8 TB/s
  m.dram_cycles_per_second = 4.7e9;
  m.dram_bytes = 0.3 * 1024 * 4.7e9 * 1e-3;  // 30% of the peak in 1 ms
  EXPECT_NEAR(course::profile::dram_fraction_of_peak(m), 0.3, 1e-9);
  const std::string on_chip = course::profile::verdict_line(m, kNoAdvice);
  EXPECT_NE(on_chip.find("DRAM moves only 30% of its peak"), std::string::npos) << on_chip;
  EXPECT_NE(on_chip.find("0.02 extra wavefronts each"), std::string::npos) << on_chip;
  EXPECT_NE(on_chip.find("the next experiment would be to use each value brought on chip more"),
            std::string::npos)
      << on_chip;
  // A scan near DRAM's rate: Memory Throughput 70% with DRAM at 72% of its peak is DRAM itself.
  KernelMetrics scan = m;
  scan.memory_pct = 70;
  scan.compute_pct = 40;
  scan.dram_bytes = 0.72 * 1024 * 4.7e9 * 1e-3;
  const std::string dram_bound = course::profile::verdict_line(scan, kNoAdvice);
  EXPECT_NE(dram_bound.find("the next experiment would be none at this geometry"),
            std::string::npos)
      << dram_bound;
  m.dram_bytes = 0.85 * 1024 * 4.7e9 * 1e-3;
  const std::string in_dram = course::profile::verdict_line(m, kNoAdvice);
  EXPECT_NE(in_dram.find("DRAM moves 85% of its peak"), std::string::npos) << in_dram;
  EXPECT_NE(in_dram.find("the next experiment would be none at this geometry"), std::string::npos)
      << in_dram;
  m.shared_ld_instructions = 0;
  EXPECT_NE(course::profile::verdict_line(m, kNoAdvice).find("there are no shared loads"),
            std::string::npos);
}

// A coalesced float4 load takes 16 sectors per request and uses every byte it fetches: not
// strided (the H200's sgemm_warp_tiles was told to make its lanes touch neighbouring addresses).
// Without the bytes-used metric, sectors per request decide as before.
TEST(Verdict, StridedMeansBytesFetchedAndNotUsed) {
  KernelMetrics wide = metrics(59, 74, 16, 16, 0, 1000);
  EXPECT_TRUE(course::profile::loads_strided(wide));  // an older report: 16 > 8
  wide.ld_bytes_used_pct = wide.st_bytes_used_pct = 100;
  EXPECT_FALSE(course::profile::loads_strided(wide));
  EXPECT_FALSE(course::profile::stores_strided(wide));
  EXPECT_EQ(course::profile::verdict_line(wide, kNoAdvice).find("neighbouring"), std::string::npos)
      << course::profile::verdict_line(wide, kNoAdvice);

  KernelMetrics every_eighth = metrics(90, 10, 32, 4, 0, 0);
  every_eighth.ld_bytes_used_pct = 12.5;
  every_eighth.st_bytes_used_pct = 100;
  EXPECT_TRUE(course::profile::loads_strided(every_eighth));
  EXPECT_FALSE(course::profile::stores_strided(every_eighth));
  const std::string line = course::profile::verdict_line(every_eighth, kNoAdvice);
  EXPECT_NE(line.find("its global loads take 32.0 sectors per request and use 12.5% of the bytes "
                      "they move"),
            std::string::npos)
      << line;

  // A reduction's partial sums: one lane per block stores 4 bytes of a sector, a sliver of the
  // kernel's sectors; and a kernel with atomics only has no store requests at all.
  KernelMetrics partial_sums = metrics(90, 10, 4, 1, 0, 0);
  partial_sums.ld_sectors = 1e6;
  partial_sums.ld_requests = 2.5e5;
  partial_sums.st_sectors = partial_sums.st_requests = 1000;
  partial_sums.ld_bytes_used_pct = 100;
  partial_sums.st_bytes_used_pct = 12.5;
  EXPECT_FALSE(course::profile::stores_strided(partial_sums));
  partial_sums.st_sectors = partial_sums.st_requests = 0;
  partial_sums.st_bytes_used_pct = 0;
  EXPECT_FALSE(course::profile::stores_strided(partial_sums));
  // Half of each sector used (a float4 per lane, lanes 32 bytes apart) is strided.
  KernelMetrics half = metrics(90, 10, 32, 4, 0, 0);
  half.ld_bytes_used_pct = 50;
  half.st_bytes_used_pct = 100;
  EXPECT_TRUE(course::profile::loads_strided(half));
  EXPECT_NE(line.find("to make its loads coalesced as well"), std::string::npos) << line;

  // The metric's name as ncu 2025 on the H200 accepted it, and the CSV read into the field.
  const auto& names = course::profile::metric_names();
  EXPECT_NE(std::find(names.begin(), names.end(),
                      "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"),
            names.end());
  const auto k = course::profile::parse_ncu_csv(
      kHeader +
      csv_for("strided", "0",
              {{"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", "12.50"},
               {"smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct", "100"}}));
  ASSERT_EQ(k.size(), 1u);
  EXPECT_DOUBLE_EQ(k[0].ld_bytes_used_pct, 12.5);
  EXPECT_DOUBLE_EQ(k[0].st_bytes_used_pct, 100);
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

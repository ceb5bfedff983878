/// @file bench.hpp
/// @brief The lab bench's tables (Lab 02), as lessons register them: each lesson's optional
/// lessons/NN_name/bench.cu builds its tables with measure() and registers them with
/// BENCH_TABLE; bench/main.cpp prints every registered table (or those asked for with --table)
/// in lesson order, as text, CSV or JSON, and writes them into PROFILE.md's marked blocks.
///
/// Every row is timed with the grader's own method (harness/timing.hpp): interleaved with its
/// table's ceiling, L2 flushed before each sample, median of the pairs.
#pragma once

#include <cuda_runtime.h>
#include <fmt/format.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "harness/buffer.hpp"
#include "harness/cuda_check.hpp"
#include "harness/data.hpp"
#include "harness/device.hpp"
#include "harness/timing.hpp"
// Not harness/lesson.hpp: the tables need no hidden-test machinery. (It brought GoogleTest then,
// about 92,000 preprocessed lines: without it a lesson's bench.cu took 5.0-5.5 s of CPU to compile
// instead of 6.1-7.5 s on 2 cores, docs/measured/setup-2core.md, twentieth session.)
#if defined(__CUDACC__)
#include "harness/fill.cuh"  // fill_on_device(): the tables draw their inputs on the device
#endif

namespace bench {

using harness::Launch;

/// One measured kernel of a table.
struct Row {
  std::string name;     ///< kernel, as printed
  std::string note;     ///< why it runs at that speed, in a few words
  double gbps = 0;      ///< effective bandwidth, GB/s (10^9 B/s)
  double fraction = 0;  ///< of the table's ceiling (0..1, median of the per-pair ratios)
  int pairs = 0;        ///< interleaved pairs timed
  std::string error;    ///< "" or why the row was not timed
};

/// A table of the lab: a ladder of kernels against one ceiling.
struct Table {
  std::string id;         ///< for --table and PROFILE.md's <!-- bench:ID:begin --> block
  std::string title;      ///< one line, with the problem size
  std::string formula;    ///< how GB/s is computed
  std::string ceiling;    ///< what every row is timed against
  std::vector<Row> rows;  ///< the ladder, in the order it is taught
};

/// What every table is measured with.
struct Context {
  harness::DeviceInfo device;             ///< the GPU measured on
  harness::L2Flusher* flusher = nullptr;  ///< flushes the L2 before every sample
  bool profiling = false;  ///< --once, or a profiler detected: one untimed launch per kernel
};

/// Times `kernel` against `ceiling` (both move `bytes`) and fills a row; under a profiler runs it
/// once, untimed (not at all when `launched`: the caller already ran it once).
Row measure(const Context& ctx, const std::string& name, const Launch& ceiling,
            const Launch& kernel, double bytes, const std::string& note = "",
            bool launched = false);

/// A student's kernel (or the solution's): run once into `out`, poisoned first, compared bit for
/// bit with `expected` (positions located by `where`); timed only when it is right, since the
/// speed of a wrong kernel means nothing.
template <typename T>
Row measure_checked(const Context& ctx, const std::string& name, const Launch& ceiling,
                    const Launch& kernel, double bytes, const std::string& note,
                    harness::DeviceBuffer<T>& out, const std::vector<T>& expected,
                    const std::function<std::string(std::size_t)>& where) {
  out.poison();
  // A stub's launcher returns cudaErrorNotYetImplemented: that row says so and the table goes on
  // (an error that leaves the device unusable still ends the bench, in harness::wait).
  const cudaError_t launched = kernel(0);
  if (launched != cudaSuccess) {
    (void)cudaGetLastError();
    harness::wait(0, name);
    Row r;
    r.name = name;
    r.error = fmt::format("returned {}, not timed", cudaGetErrorName(launched));
    return r;
  }
  harness::wait(0, name);
  const std::vector<T> got = out.download();
  const harness::Mismatches m = harness::compare_bits(
      expected, got, [&](std::size_t i) { return harness::still_poisoned(got[i]); });
  if (m.ok()) return measure(ctx, name, ceiling, kernel, bytes, note, /*launched=*/true);
  Row r;
  r.name = name;
  r.error = "wrong output, not timed: " +
            harness::mismatch_message("out", m,
                                      [&](const std::string&, std::size_t i) { return where(i); });
  return r;
}

/// A function that builds one table.
using MakeTable = std::function<Table(const Context&)>;

/// Registers a table of `lesson` under `id`; tables print in lesson order, then in the order a
/// lesson's file registers them. Used through BENCH_TABLE.
struct TableRegistration {
  /// Adds the table to the registry (at static initialisation, before main).
  TableRegistration(const char* lesson, const char* id, MakeTable make);
};

/// A registered table.
struct Registered {
  std::string lesson;  ///< "07_transpose"
  std::string id;      ///< "transpose"
  MakeTable make;      ///< builds and measures the table
};
/// Every registered table, in print order.
std::vector<Registered> tables();

}  // namespace bench

/// @cond
#define BENCH_CONCAT_(a, b) a##b
#define BENCH_CONCAT(a, b) BENCH_CONCAT_(a, b)
/// @endcond
/// Registers `make` (a Table(const Context&) function) as table `id` of `lesson`.
#define BENCH_TABLE(lesson, id, make)                                                            \
  [[maybe_unused]] static const ::bench::TableRegistration BENCH_CONCAT(bench_table_, __LINE__)( \
      lesson, id, make)

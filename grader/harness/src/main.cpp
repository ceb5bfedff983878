// main() of every hidden-test binary (grade_<lesson>). The grader runs it as a child process:
//   grade_07_transpose --report FILE --seed N [--device N] [--kernel-timeout S] [--quick]
//                      [--skip-large] [--skip-profiled] [--quiet-gpu-lock FILE]
//                      [--gpu-held-by-caller] [--wait-for-go FILE]
//                      [--gtest_filter=...]
// Correctness cases run first, sharing the GPU with the machine's other hidden-test processes,
// then the timed and profiled tests, which first wait for the GPU to themselves: the grade's
// memcheck done (--quiet-gpu-lock) and no other hidden-test process on it (harness/quiet_gpu.hpp;
// the timed test of a step that failed a correctness case fails at once, "not timed", without
// waiting; lesson 15's profiled test waits itself, where it needs the GPU alone); last,
// the few correctness cases that end their process on purpose ("<step>/CorrectLast"). Exit codes: 0
// all tests passed, 1 some failed, 3 no usable GPU (or the student's device images are for
// another GPU: harness/src/device_image.cpp), 86 the CUDA context was lost
// (course/protocol.hpp). Without a GPU it says so on stderr and in the report file.
#include <cuda_runtime.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <CLI/CLI.hpp>

#include <cstdio>

#include "course/protocol.hpp"
#include "harness/cuda_check.hpp"
#include "harness/device.hpp"
#include "harness/lesson.hpp"
#include "harness/ncu.hpp"
#include "harness/quiet_gpu.hpp"
#include "harness/record.hpp"
#include "harness/reporter.hpp"

// Defined in harness/src/device_image.cpp, linked only into binaries that load the student's
// kernels from device images (cmake/CourseDeviceImage.cmake); null elsewhere.
extern "C" const char* course_device_image_problem() __attribute__((weak));

namespace {
// The GPU's UUID as 32 hex digits.
std::string gpu_uuid(const cudaDeviceProp& p) {
  std::string hex;
  for (const char byte : p.uuid.bytes)
    hex += fmt::format("{:02x}", static_cast<unsigned char>(byte));
  return hex;
}
}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);  // removes the --gtest_* flags it knows
  harness::detail::register_deferred_tests();

  CLI::App app{"Hidden tests of one lesson (run by the grader; see ./build/grader --help)"};
  std::string report_path;
  unsigned long long seed = 20261129;
  int device = 0;
  double kernel_timeout = 10.0;
  bool quick = false, skip_large = false, skip_profiled = false;
  std::string quiet_gpu_lock;
  app.add_option("--report", report_path, "append JSON-lines records to this file");
  app.add_option("--seed", seed, "seed of the random inputs");
  app.add_option("--device", device, "CUDA device index");
  app.add_option("--kernel-timeout", kernel_timeout, "seconds before a kernel counts as hung");
  app.add_flag("--quick", quick, "small shapes only, no timing (for compute-sanitizer)");
  app.add_flag(
      "--skip-large", skip_large,
      "skip the cases that need several GiB and the correctness cases past 2^23 elements (the "
      "grader's --quick; implied by --quick)");
  app.add_flag("--skip-profiled", skip_profiled,
               "profiled tests skip (the grader's --quick on a whole lesson; implied by --quick)");
  app.add_option("--quiet-gpu-lock", quiet_gpu_lock,
                 "timed and profiled tests first wait for an flock on this file (the grader holds "
                 "it while memcheck runs beside the correctness cases)");
  bool gpu_held_by_caller = false;
  app.add_flag("--gpu-held-by-caller", gpu_held_by_caller,
               "take no machine-wide GPU lock: the process that started this one has the GPU "
               "alone for it by the time this one launches anything (lesson 15's profiled test "
               "runs Nsight Compute so; with --wait-for-go the context is created before that)");
  std::string go_file;
  app.add_option("--wait-for-go", go_file,
                 "once the CUDA context exists, before any test, wait until the process holding "
                 "FILE's lock writes go (Nsight Compute started ahead of lesson 15's profiled "
                 "test: harness/ncu.hpp)");
  CLI11_PARSE(app, argc, argv);

  harness::set_seed(seed);
  harness::set_quick(quick);
  harness::set_skip_large(skip_large);
  harness::set_skip_profiled(skip_profiled);
  harness::set_kernel_timeout(kernel_timeout);
  if (::testing::GTEST_FLAG(list_tests)) return RUN_ALL_TESTS();  // listing needs no GPU
  harness::ReportFile report(report_path);
  harness::set_quiet_gpu_lock(
      quiet_gpu_lock,
      [&report] {
        report.write({{"event", "waiting_for_quiet_gpu"}});
      },
      [&report] {
        report.write({{"event", "waiting_for_quiet_gpu"}, {"on", "machine"}});
      });
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err == cudaSuccess && count == 0) err = cudaErrorNoDevice;
  if (err == cudaSuccess && device >= count) err = cudaErrorInvalidDevice;
  if (err == cudaSuccess && !gpu_held_by_caller) {
    // Before the context exists: the GPU is shared with the machine's other hidden-test processes
    // from the first thing this one does on it. Its UUID names the lock (CUDA_VISIBLE_DEVICES may
    // renumber the same GPU).
    cudaDeviceProp p{};
    err = cudaGetDeviceProperties(&p, device);
    if (err == cudaSuccess) harness::share_gpu_on_machine(harness::kGpuLockDir, gpu_uuid(p));
  }
  if (err == cudaSuccess) err = cudaSetDevice(device);
  if (err == cudaSuccess) err = cudaFree(nullptr);  // creates the context: fails early if unusable
  if (err != cudaSuccess) {
    const std::string reason =
        fmt::format("{} ({})", cudaGetErrorString(err), cudaGetErrorName(err));
    report.write({{"event", "no_gpu"}, {"reason", reason}});
    std::fprintf(stderr, "no usable CUDA GPU: %s\n", reason.c_str());
    return course::protocol::kExitNoGpu;
  }

  // Device images built for another GPU (a build folder configured for a T4, run on an L4): the
  // grade stops with the reason and the fix instead of failing every test with a bare
  // cudaErrorInvalidDeviceFunction.
  const char* image_problem =
      course_device_image_problem != nullptr ? course_device_image_problem() : nullptr;
  try {
    const harness::DeviceInfo d = harness::query_device();
    nlohmann::json device_record = {
        {"event", "device"},
        {"index", d.index},
        {"name", d.name},
        {"cc", fmt::format("{}.{}", d.cc_major, d.cc_minor)},
        {"sm", d.sm()},
        {"sms", d.sm_count},
        {"l2_bytes", d.l2_bytes},
        {"total_bytes", d.total_bytes},
        {"memory_clock_khz", d.memory_clock_khz},
        {"bus_width_bits", d.bus_width_bits},
        {"peak_gbps", d.datasheet_peak_gbps()},
        {"driver", fmt::format("{}.{}", d.driver_version / 1000, d.driver_version % 1000 / 10)},
        {"runtime", fmt::format("{}.{}", d.runtime_version / 1000, d.runtime_version % 1000 / 10)},
        {"seed", seed}};
    if (image_problem != nullptr) device_record["device_image_problem"] = image_problem;
    report.write(device_record);
  } catch (const harness::CudaError& e) {
    report.write({{"event", "no_gpu"}, {"reason", e.what()}});
    std::fprintf(stderr, "no usable CUDA GPU: %s\n", e.what());
    return course::protocol::kExitNoGpu;
  }
  if (image_problem != nullptr) return course::protocol::kExitNoGpu;
  // Nsight Compute's run (lesson 15's profiled test): the context exists by now, so ncu's
  // connection and the context's creation under its injection are over before the go, while the
  // grade's other tests run: from go to ncu's exit 2.04 s instead of 2.51 on our H200
  // (docs/measured/H200.md, twenty-second session). Nothing is launched before the go, but the
  // context's creation is not ordered by the parent's locks: it may overlap a timed test of the
  // parent's (the ten runs of lesson 15's solution were unchanged by it, same place).
  if (!go_file.empty() && !harness::wait_for_go(go_file)) {
    std::fprintf(stderr,
                 "not profiled: the test that started Nsight Compute ended without "
                 "letting this run go on (%s)\n",
                 go_file.c_str());
    return 1;
  }

  harness::Reporter* reporter = new harness::Reporter(report);  // owned by GoogleTest
  ::testing::UnitTest::GetInstance()->listeners().Append(reporter);
  const int rc = RUN_ALL_TESTS();
  // Remove before `report` goes out of scope: GoogleTest deletes listeners at exit.
  delete ::testing::UnitTest::GetInstance()->listeners().Release(reporter);
  // Every result is written: the grader may read them and go on while this process tears down
  // its CUDA context (0.1 s and more on our H200: docs/measured/H200.md, twenty-sixth session).
  harness::release_gpu_locks();
  report.write({{"event", "exit"}, {"code", rc}});
  return rc;
}

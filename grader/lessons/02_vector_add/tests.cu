// Hidden tests of lesson 02_vector_add.
//
//   kernel/Correct.n_<n>      the kernel `add` through the course's launcher, on many n
//   kernel/Speed.timed        the same against the copy rung `copy` (the step's gate)
//   host/Correct.n_<n>        vector_add on host arrays: the result, n = 0 included
//   host/Correct.negative_n   n < 0 is refused with cudaErrorInvalidValue
//   host/Correct.no_leak      device memory in use is the same before and after
//   host/Correct.failed_launch    the course's launcher made to fail: an error, and no leak
//   host/CorrectLast.kernel_fault the kernel made to fail: an error (sticky, so it ends its
//                                 process: it runs after every other test, the timed ones too)
//
// A float sum is rounded once whatever the compiler does (there is nothing to fuse), so results
// are compared bit for bit with the host's float add.
#include <fmt/format.h>

#include <vector>

#include "harness/host_code.hpp"
#include "harness/lesson.hpp"
#include "steps/02_vector_add.hpp"
#include "vector_add.cuh"

namespace {

using vector_add::Fault;
using vector_add::Step;

// ============================== kernel ==============================

// One element; one short of, at and one past a warp (32) and a block (256); primes; multi-block
// grids up to 2^24 + 1 (65,537 blocks, the last with one element).
const std::vector<int> kKernelSizes = {1,   2,    31,   32,    33,     255,     256,
                                       257, 1000, 4099, 65537, 100003, 1048577, (1 << 24) + 1};

// a, b and c as large as the square timing matrix: 3 x 2^26 floats (768 MiB) on a GPU with up to
// 192 MiB of L2, more on larger caches, so the working set is always at least 4x the L2.
int kernel_timing() {
  return static_cast<int>(harness::timing_elements(3, sizeof(float)));
}

std::vector<float> host_add(const std::vector<float>& a, const std::vector<float>& b, int n) {
  std::vector<float> c(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];
  return c;
}

// The device reference (harness::Reference): a[i] + b[i] from the inputs' draws, one rounding.
struct SumOfDraws {
  std::uint64_t a_seed, b_seed;
  __device__ float operator()(std::size_t i) const {
    const harness::RandomValues<float> draw;
    return __fadd_rn(draw(a_seed, i), draw(b_seed, i));
  }
};

void kernel_case(harness::Case& c, const int& n) {
  const int blocks = (n + vector_add::BLOCK_THREADS - 1) / vector_add::BLOCK_THREADS;
  c.describe("add", fmt::format("n = {} ({} block{} of {} threads)", n, blocks,
                                blocks == 1 ? "" : "s", vector_add::BLOCK_THREADS));
  const auto a = c.input<float>("a", n), b = c.input<float>("b", n);
  const auto out = c.output<float>("c", n);
  c.launch(vector_add::launch_add, a, b, out, n);
  c.ceiling(vector_add::launch_copy, a, b, out, n);
  c.bytes(3.0 * sizeof(float) * n);  // read a[i] and b[i], write c[i]
  // "c[5] should be a[5] + b[5] = 1.5 + -1", unless the element was never written.
  const auto advice = [&](const harness::Mismatches& m) {
    if (m.first_unwritten) return std::string();
    return fmt::format("c[{0}] should be a[{0}] + b[{0}] = {1} + {2}", m.first,
                       harness::show(a.host()[m.first]), harness::show(b.host()[m.first]));
  };
  c.expect_exact(out,
                 harness::reference([&] { return host_add(a.host(), b.host(), n); },
                                    SumOfDraws{a.seed(), b.seed()}),
                 harness::flat(), advice);
}

// ============================== host ==============================

// n = 0 (nothing to do); one element; one short of and one past a warp; one past a block; primes;
// 2^24 + 1 (64 MiB per array, the last block holding one element).
const std::vector<int> kHostSizes = {0, 1, 2, 31, 33, 257, 4099, 65537, 1000003, (1 << 24) + 1};

// Arrays of many MiB for the memory checks: a leaked one stands far above the steps in which
// device memory is handed out (cudaMemGetInfo does not move by single bytes). 16 MiB, not the
// 64 MiB of the largest result case: five calls on 2^24 + 1 floats took 0.4 s of every grade.
constexpr int kLeakN = (1 << 22) + 1;   // 16 MiB per array
constexpr int kFaultN = (1 << 22) + 1;  // 16 MiB per array

std::string error_text(cudaError_t err) {
  return fmt::format("{} ({})", cudaGetErrorName(err), cudaGetErrorString(err));
}

// Two host arrays of n random floats, one element longer than n (so that data() is never null,
// even for n = 0); only the first n belong to the call.
struct HostInputs {
  std::vector<float> a, b;
  HostInputs(int n, std::uint64_t seed)
      : a(harness::random_floats(static_cast<std::size_t>(n) + 1, harness::mix(seed + 1))),
        b(harness::random_floats(static_cast<std::size_t>(n) + 1, harness::mix(seed + 2))) {}
};

// What to say when vector_add returned `err` where cudaSuccess was expected.
std::string unexpected_error(int n, cudaError_t err) {
  std::string text = fmt::format("vector_add returned {}, expected cudaSuccess", error_text(err));
  if (err == cudaErrorNotYetImplemented)
    return text + ": that is the stub's placeholder, the function is not written yet";
  if (n == 0)
    return text +
           ". With n = 0 there is nothing to allocate, copy or launch: return cudaSuccess before "
           "the first CUDA call (a grid of ceil(0 / 256) = 0 blocks is an invalid configuration, "
           "and what cudaMalloc does with 0 bytes is not documented)";
  if (const std::string cause = harness::likely_cause(err); !cause.empty())
    text += ". Likely cause: " + cause;
  return text;
}

// The size of a leak, for people: "16.0 MiB (about 1 array of n floats)".
std::string leak_size(double bytes, int n) {
  const double arrays = bytes / (static_cast<double>(n) * sizeof(float));
  return fmt::format("{:.1f} MiB (about {:.0f} arr{} of n floats)", bytes / (1 << 20), arrays,
                     arrays < 1.5 ? "ay" : "ays");
}

void host_result(harness::Case& c, const int& n) {
  c.describe("vector_add", fmt::format("n = {} (a, b and c in host memory)", n));
  c.admit(static_cast<std::size_t>(n));
  const HostInputs in(n, c.seed());
  const HostInputs pristine = in;
  harness::HostOutput<float> out("c", n);
  const cudaError_t err = vector_add::vector_add(in.a.data(), in.b.data(), out.data(), n);
  if (err != cudaSuccess) return c.fail(unexpected_error(n, err));
  harness::expect_exact(c, out, host_add(in.a, in.b, n));
  if (in.a != pristine.a || in.b != pristine.b)
    c.fail("the input changed: a and b are only read (copy them host to device, never back)");
}

// The checks of step `host` beyond the result. kernel_fault runs after every other test of the
// lesson (harness::correctness_ending_process), since the error it provokes ends the CUDA context
// of the test process.
enum class HostCheck { negative_n, no_leak, failed_launch, kernel_fault };
const std::vector<HostCheck> kHostChecks = {HostCheck::negative_n, HostCheck::no_leak,
                                            HostCheck::failed_launch};
const std::vector<HostCheck> kContextEndingChecks = {HostCheck::kernel_fault};

std::string check_name(const HostCheck& k) {
  switch (k) {
    case HostCheck::negative_n:
      return "negative_n";
    case HostCheck::no_leak:
      return "no_leak";
    case HostCheck::failed_launch:
      return "failed_launch";
    case HostCheck::kernel_fault:
      return "kernel_fault";
  }
  return "?";
}

void negative_n(harness::Case& c) {
  c.describe("vector_add", "n = -1");
  const HostInputs in(1, c.seed());
  harness::HostOutput<float> out("c", 0);
  const cudaError_t err = vector_add::vector_add(in.a.data(), in.b.data(), out.data(), -1);
  if (err != cudaErrorInvalidValue)
    c.fail(fmt::format(
        "vector_add returned {}, expected cudaErrorInvalidValue: a negative count is the "
        "caller's mistake, to be refused before the first CUDA call (-1 * sizeof(float) as a "
        "size_t is about 1.8e19 bytes)",
        error_text(err)));
  if (const std::size_t d = out.guard_damage(); d > 0)
    c.fail(fmt::format("wrote {} elements into c although n = -1", d));
}

void no_leak(harness::Case& c) {
  c.describe(
      "vector_add",
      fmt::format("n = {} called 5 times, device memory in use compared before and after", kLeakN));
  c.admit(kLeakN);
  const HostInputs in(kLeakN, c.seed());
  harness::HostOutput<float> out("c", kLeakN);
  cudaError_t first = cudaSuccess;
  const double leaked = harness::leaked_bytes_per_call([&] {
    const cudaError_t err = vector_add::vector_add(in.a.data(), in.b.data(), out.data(), kLeakN);
    if (first == cudaSuccess) first = err;
  });
  if (first != cudaSuccess) return c.fail(unexpected_error(kLeakN, first));
  harness::expect_exact(c, out, host_add(in.a, in.b, kLeakN));
  if (leaked >= 0.5 * kLeakN * sizeof(float))
    c.fail(fmt::format(
        "device memory leak: each call left {} of device memory allocated (cudaMemGetInfo, "
        "after a first call not counted). Every cudaMalloc needs its cudaFree",
        leak_size(leaked, kLeakN)));
}

// The launcher refuses the launch (1025 threads per block): vector_add must return that error
// and free its arrays on the way out.
void failed_launch(harness::Case& c) {
  c.describe("vector_add",
             fmt::format("n = {} with the course's launcher made to fail (launch_add launches 1025 "
                         "threads per block and returns the error the runtime reports), 5 times",
                         kFaultN));
  // A refused launch is an API error, which compute-sanitizer counts as one of its findings.
  if (harness::quick()) harness::skip_in_quick_mode("no launch is made to fail");
  const HostInputs in(kFaultN, c.seed());
  harness::HostOutput<float> out("c", kFaultN);
  bool launched = true;
  std::vector<cudaError_t> returned;
  const double leaked = harness::leaked_bytes_per_call([&] {
    vector_add::inject_fault(Fault::launch_error);
    returned.push_back(vector_add::vector_add(in.a.data(), in.b.data(), out.data(), kFaultN));
    if (vector_add::fault_pending()) launched = false;
    vector_add::inject_fault(Fault::none);
  });
  if (!launched)
    return c.fail(fmt::format("vector_add returned {} without calling launch_add",
                              error_text(returned.front())));
  // What the refused launch returned, as the runtime reports it (cudaErrorInvalidValue on our
  // H200 with CUDA 13.0, where older toolkits named cudaErrorInvalidConfiguration).
  const cudaError_t refused = vector_add::last_fault_result();
  if (refused == cudaSuccess)
    return c.fail("the course's launcher was made to fail, but the runtime accepted the launch");
  for (const cudaError_t err : returned) {
    if (err == refused) continue;
    if (err == cudaSuccess)
      return c.fail(fmt::format(
          "the launch failed (launch_add returned {}), but vector_add returned cudaSuccess, and c "
          "holds whatever was in device memory. Check the value launch_add returns and return it "
          "(launch_add has already called cudaGetLastError(), which reset the error: calling it "
          "again returns cudaSuccess)",
          error_text(refused)));
    return c.fail(fmt::format(
        "the launch failed with {}, but vector_add returned {}: return the first error, not a "
        "later one",
        error_text(refused), error_text(err)));
  }
  if (leaked >= 0.5 * kFaultN * sizeof(float))
    c.fail(
        fmt::format("device memory leak after a failed launch: each call left {} of device memory "
                    "allocated. Free the arrays on the error paths too",
                    leak_size(leaked, kFaultN)));
}

// The kernel fails (a trap, cudaErrorLaunchFailure) after the launch has succeeded: only a
// synchronizing call can report it. The error is sticky, so this test ends its process.
void kernel_fault(harness::Case& c) {
  c.describe("vector_add",
             "n = 1000 with the kernel made to fail (it traps about a millisecond after "
             "a successful launch: cudaErrorLaunchFailure)");
  // compute-sanitizer would report the trap as one of its findings.
  if (harness::quick()) harness::skip_in_quick_mode("no kernel is made to fail");
  const HostInputs in(1000, c.seed());
  harness::HostOutput<float> out("c", 1000);
  vector_add::inject_fault(Fault::kernel_error);
  const cudaError_t err = vector_add::vector_add(in.a.data(), in.b.data(), out.data(), 1000);
  if (vector_add::fault_pending()) {
    vector_add::inject_fault(Fault::none);
    return c.fail(
        fmt::format("vector_add returned {} without calling launch_add", error_text(err)));
  }
  harness::mark_context_lost(
      "the hidden test host/CorrectLast.kernel_fault made a kernel fail on purpose; its error is "
      "sticky, so the remaining tests run in a fresh process");
  if (err == cudaSuccess)
    c.fail(
        "the kernel failed (cudaErrorLaunchFailure, after launch_add had returned cudaSuccess), "
        "but vector_add returned cudaSuccess. A kernel's own error reaches the host only through "
        "a later synchronizing call: check what cudaDeviceSynchronize() returns, and every "
        "cudaMemcpy");
}

void host_check(harness::Case& c, const HostCheck& k) {
  switch (k) {
    case HostCheck::negative_n:
      return negative_n(c);
    case HostCheck::no_leak:
      return no_leak(c);
    case HostCheck::failed_launch:
      return failed_launch(c);
    case HostCheck::kernel_fault:
      return kernel_fault(c);
  }
}

}  // namespace

COURSE_TESTS {
  harness::correctness(Step::kernel, kKernelSizes, harness::name_n, kernel_case);
  harness::speed(Step::kernel, kernel_timing, kernel_case);

  harness::correctness(Step::host, kHostSizes, harness::name_n, host_result);
  harness::correctness(Step::host, kHostChecks, check_name, host_check);
  harness::correctness_ending_process(Step::host, kContextEndingChecks, check_name, host_check);
}

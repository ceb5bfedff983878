// Hidden tests of lesson 14_streams.
//
//   pinned/Correct.n_<n>       pinned_alloc + pinned_free: the memory holds n floats, a copy to
//                              the device and back returns them, nothing stays allocated
//   pinned/Correct.too_large   an allocation that cannot succeed: an error, *p null, no leak
//   pinned/Speed.timed         the course's copies (64 MiB in, 64 MiB out) through your buffers
//                              against the same copies through the course's cudaMallocHost ones
//   overlap/Correct.n_<n>      pipeline on host buffers: complete on return, exact, input
//                              unchanged, nothing written past out, no stream, event or pinned
//                              buffer left behind
//   overlap/Speed.timed        pipeline over 256 MiB on the wall clock against the overlap bound
//
// The leak checks count what the process creates and destroys through the runtime (the course's
// link-time wraps, streams::live_resources()), before and after each call.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstring>
#include <memory>
#include <vector>

#include "harness/host_timing.hpp"
#include "harness/lesson.hpp"
#include "steps/14_streams.hpp"
#include "streams.cuh"

namespace {

using streams::Step;

std::string error_text(cudaError_t err) {
  return fmt::format("{} ({})", cudaGetErrorName(err), cudaGetErrorString(err));
}

// "2 streams and 1 pinned buffer": what `after` holds that `before` did not ("" for nothing).
std::string leaked(const streams::Resources& before, const streams::Resources& after) {
  std::vector<std::string> parts;
  auto add = [&](long long d, const char* one, const char* many) {
    if (d != 0) parts.push_back(fmt::format("{} {}", d, d == 1 || d == -1 ? one : many));
  };
  add(after.streams - before.streams, "stream", "streams");
  add(after.events - before.events, "event", "events");
  add(after.pinned - before.pinned, "pinned buffer (cudaMallocHost/cudaHostAlloc)",
      "pinned buffers (cudaMallocHost/cudaHostAlloc)");
  add(after.registered - before.registered, "registration (cudaHostRegister)",
      "registrations (cudaHostRegister)");
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string still_held(const std::string& what, const streams::Resources& before) {
  const std::string l = leaked(before, streams::live_resources());
  if (l.empty()) return "";
  return fmt::format(
      "{} left {} behind (created minus destroyed, counted by the course around the call): "
      "destroy every stream and event you create, and free every pinned buffer, on every path",
      what, l);
}

// The timing size: 2^26 floats, 256 MiB each way.
constexpr std::size_t kTimingN = std::size_t(1) << 26;

// pinned's timing size: 2^24 floats, 64 MiB each way. A copy's speed is the same from 64 MiB up
// (our H200: 54.7-55.2 GB/s page-locked and 8.8-8.9 GB/s pageable, the same ratio 0.160-0.161 at
// 64, 128 and 256 MiB), while making, filling and freeing page-locked memory grows with its size:
// 0.11 s for two 64 MiB buffers, 0.41 s for two of 256 MiB (docs/measured/H200.md, twenty-sixth
// session). The student's two buffers are made for this test alone.
constexpr std::size_t kPinnedTimingN = std::size_t(1) << 24;

// The course's own page-locked buffers of the timed tests, `in` and `out` (kTimingN + 1 floats
// each), made once per process by the first timed test, which then has the GPU to itself, and
// never freed: pinned's ceiling and overlap's timed calls share them. Each made and freed its own
// until now, most of the 1.1 s and 0.8 s that pinned's and overlap's timed tests took on our H200
// beside 0.25 s and 0.34 s of timing (docs/measured/H200.md, sixteenth session). The correctness
// cases keep buffers of their own: they run while other processes share the GPU and wait, and
// would otherwise hold 512 MiB of page-locked memory through that wait.
struct TimingSizeBuffers {
  float *in = nullptr, *out = nullptr;
};
const TimingSizeBuffers& timing_size_buffers() {
  static const TimingSizeBuffers b = [] {
    TimingSizeBuffers t;
    harness::check(cudaMallocHost(&t.in, (kTimingN + 1) * sizeof(float)), "cudaMallocHost in");
    harness::check(cudaMallocHost(&t.out, (kTimingN + 1) * sizeof(float)), "cudaMallocHost out");
    return t;
  }();
  return b;
}

// The device reference: element i of the output for the input drawn from `seed`.
struct Transformed {
  std::uint64_t seed;
  __host__ __device__ float operator()(std::size_t i) const {
    const harness::RandomValues<float> draw;
#if defined(__CUDA_ARCH__)
    return __fmaf_rn(streams::SCALE, draw(seed, i), streams::OFFSET);
#else
    return std::fmaf(streams::SCALE, draw(seed, i), streams::OFFSET);
#endif
  }
};

// Writes kOutputPoison's bytes into n floats (device or page-locked host memory, from the GPU).
struct Poison {
  __host__ __device__ float operator()(std::uint64_t, std::size_t) const {
    float f;
    unsigned bits = 0x01010101u * static_cast<unsigned char>(harness::kOutputPoison);
    memcpy(&f, &bits, sizeof f);
    return f;
  }
};

// ============================== pinned ==============================

const std::vector<int> kPinnedSizes = {0, 1, 1000, 65537, (1 << 22) + 3};

void pinned_case(harness::Case& c, const int& n_int) {
  const std::size_t n = static_cast<std::size_t>(n_int);
  c.describe("pinned_alloc and pinned_free", fmt::format("n = {} floats", n));
  c.admit(n);
  const streams::Resources before = streams::live_resources();
  float* p = reinterpret_cast<float*>(std::uintptr_t{0x1});  // not null: must be overwritten
  cudaError_t err = streams::pinned_alloc(&p, n);
  if (err != cudaSuccess)
    return c.fail(
        fmt::format("pinned_alloc returned {}, expected cudaSuccess{}", error_text(err),
                    err == cudaErrorNotYetImplemented ? " (the stub's placeholder)" : ""));
  if (n == 0) {
    if (p != nullptr) c.fail("pinned_alloc with n = 0 must set *p = nullptr");
  } else if (p == nullptr) {
    return c.fail("pinned_alloc returned cudaSuccess but *p is null");
  } else {
    // The n floats hold values, and a copy to the device and back returns them bit for bit.
    const std::vector<float> values = harness::random_floats(n, c.seed());
    std::memcpy(p, values.data(), n * sizeof(float));
    harness::DeviceBuffer<float> d(n);
    harness::check(cudaMemcpy(d.data(), p, n * sizeof(float), cudaMemcpyHostToDevice), "copy in");
    std::memset(p, harness::kOutputPoison, n * sizeof(float));
    harness::check(cudaMemcpy(p, d.data(), n * sizeof(float), cudaMemcpyDeviceToHost), "copy out");
    if (std::memcmp(p, values.data(), n * sizeof(float)) != 0)
      c.fail("the n floats at *p did not survive a copy to the device and back");
  }
  err = streams::pinned_free(p);
  if (err != cudaSuccess)
    c.fail(fmt::format("pinned_free returned {}, expected cudaSuccess", error_text(err)));
  if (std::string l = still_held("pinned_alloc and pinned_free", before); !l.empty()) c.fail(l);
  if (const cudaError_t e = streams::pinned_free(nullptr); e != cudaSuccess)
    c.fail(fmt::format("pinned_free(nullptr) returned {}: freeing nothing must succeed",
                       error_text(e)));
}

// 2^48 floats (1 PiB): no machine pins that much. An error, *p null, nothing held.
void too_large(harness::Case& c) {
  c.describe("pinned_alloc", "n = 2^48 floats (1 PiB), which cannot be allocated");
  // A failed allocation is an API error, which compute-sanitizer counts as one of its findings.
  if (harness::quick()) harness::skip_in_quick_mode("no allocation is made to fail");
  const streams::Resources before = streams::live_resources();
  float* p = reinterpret_cast<float*>(std::uintptr_t{0x1});
  const cudaError_t err = streams::pinned_alloc(&p, std::size_t(1) << 48);
  cudaGetLastError();  // the failed allocation's error is not the next test's
  if (err == cudaSuccess)
    c.fail("pinned_alloc returned cudaSuccess for 1 PiB: return the allocation's error");
  if (p != nullptr) c.fail("after a failed allocation *p must be nullptr");
  if (std::string l = still_held("a failed pinned_alloc", before); !l.empty()) c.fail(l);
}

// The course's copies, 64 MiB to the device and back, through the student's buffers (timed) and
// through its own cudaMallocHost buffers (the ceiling: the first kPinnedTimingN floats of the
// shared ones). The student's code is the choice of
// memory, which the copies' speed shows.
harness::HostSpeedTest pinned_speed() {
  constexpr std::size_t n = kPinnedTimingN, bytes = n * sizeof(float);
  struct Buffers {
    float *src = nullptr, *dst = nullptr;
    float *ref_src = timing_size_buffers().in, *ref_dst = timing_size_buffers().out;
    harness::DeviceBuffer<float> d;
    explicit Buffers(std::size_t n) : d(n) {}
    ~Buffers() {
      streams::pinned_free(src);
      streams::pinned_free(dst);
    }
  };
  auto b = std::make_shared<Buffers>(n);
  harness::check(streams::pinned_alloc(&b->src, n), "pinned_alloc (yours) of 64 MiB");
  harness::check(streams::pinned_alloc(&b->dst, n), "pinned_alloc (yours) of 64 MiB");
  std::memset(b->src, 0, bytes);
  std::memset(b->ref_src, 0, bytes);
  auto round_trip = [b, bytes](const float* src, float* dst) {
    harness::check(cudaMemcpy(b->d.data(), src, bytes, cudaMemcpyHostToDevice), "copy in");
    harness::check(cudaMemcpy(dst, b->d.data(), bytes, cudaMemcpyDeviceToHost), "copy out");
  };
  // One float per 4 KiB page changes every sample, and comes back.
  constexpr std::size_t kStride = 1024;
  harness::HostSpeedTest t;
  t.bytes = 2.0 * static_cast<double>(bytes);
  t.shape = "n = 16,777,216 floats (64 MiB to the device and 64 MiB back)";
  t.calls.ceiling_ms = [b, round_trip](std::uint64_t) {
    return harness::wall_ms([&] { round_trip(b->ref_src, b->ref_dst); });
  };
  // Only those floats are poisoned and compared: the timed code is the course's own cudaMemcpy,
  // so they show that the bytes went through; a full pass over 64 MiB on the host would take
  // longer than the copies.
  t.calls.prepare = [b, n](std::uint64_t seed) {
    for (std::size_t i = 0; i < n; i += kStride) {
      b->src[i] = static_cast<float>(harness::mix(seed + i) % 1000003);
      std::memset(b->dst + i, harness::kOutputPoison, sizeof(float));
    }
  };
  t.calls.call = [b, round_trip] {
    round_trip(b->src, b->dst);
    return cudaSuccess;
  };
  t.calls.verify = [b, n](std::uint64_t) -> std::string {
    for (std::size_t i = 0; i < n; i += kStride)
      if (std::memcmp(b->src + i, b->dst + i, sizeof(float)) != 0)
        return fmt::format(
            "the 64 MiB copied to the device and back through your buffers came back changed "
            "at element {}",
            i);
    return "";
  };
  t.advice_when_slow = [b] {
    cudaPointerAttributes a{};
    if (cudaPointerGetAttributes(&a, b->src) == cudaSuccess && a.type == cudaMemoryTypeUnregistered)
      return std::string(
          "cudaPointerGetAttributes reports the memory pinned_alloc returned as pageable "
          "(cudaMemoryTypeUnregistered): the driver copies it through a staging buffer of its "
          "own. Allocate it with cudaMallocHost (or register it with cudaHostRegister)");
    return std::string();
  };
  return t;
}

// ============================== overlap ==============================

// The course's buffers of one pipeline call: in and out page-locked (out with a guard of poison
// after it; the timed calls' are the shared timing_size_buffers()), d_x and d_y in device memory.
struct PipelineBuffers {
  std::size_t n, guard;
  bool shared;  // in and out are timing_size_buffers() (n = kTimingN, no guard)
  float *in = nullptr, *out = nullptr;
  harness::DeviceBuffer<float> d_x, d_y;
  streams::Resources before;  // what the process held before the call (prepare())
  PipelineBuffers(std::size_t n, std::size_t guard, bool shared = false)
      : n(n), guard(guard), shared(shared), d_x(n), d_y(n) {
    if (shared) {
      in = timing_size_buffers().in;
      out = timing_size_buffers().out;
      return;
    }
    harness::check(cudaMallocHost(&in, (n + 1) * sizeof(float)), "cudaMallocHost in");
    harness::check(cudaMallocHost(&out, (n + guard + 1) * sizeof(float)), "cudaMallocHost out");
  }
  ~PipelineBuffers() {
    if (shared) return;
    cudaFreeHost(in);
    cudaFreeHost(out);
  }
  PipelineBuffers(const PipelineBuffers&) = delete;
  PipelineBuffers& operator=(const PipelineBuffers&) = delete;

  // Fresh input from `seed` (drawn by the GPU straight into the page-locked buffer), out and its
  // guard poisoned, the device workspace poisoned (so stale results of an earlier call are not
  // right by accident).
  void prepare(std::uint64_t seed) {
    harness::check(harness::fill_on_device(in, n, seed, harness::RandomValues<float>{}, 0),
                   "draw in");
    harness::check(harness::fill_on_device(out, n + guard, 0, Poison{}, 0), "poison out");
    harness::check(cudaMemset(d_x.data(), harness::kOutputPoison, n * sizeof(float)), "poison");
    harness::check(cudaMemset(d_y.data(), harness::kOutputPoison, n * sizeof(float)), "poison");
    harness::wait(0, "prepare the buffers");
    before = streams::live_resources();
  }
  cudaError_t call() { return streams::pipeline(in, out, d_x.data(), d_y.data(), n); }

  // Right on return, before anything synchronizes: the last element, then one per 64 KiB from
  // the end backwards, must have been written.
  std::string incomplete() const {
    const volatile float* o = out;
    for (std::size_t k = 0; k < n; k += 16384) {
      const std::size_t i = n - 1 - k;
      const float v = o[i];
      if (harness::still_poisoned(v))
        return fmt::format(
            "the output was incomplete when pipeline returned: out[{}] still held the poison "
            "written before the call, so copies were still running. pipeline is synchronous: "
            "wait for every stream (cudaStreamSynchronize) before it returns",
            i);
    }
    return "";
  }

  // After synchronizing: out exact (on the device, reading the page-locked buffer), the guard
  // untouched, and (with `check_input`) the input unchanged.
  std::string wrong(std::uint64_t seed, bool check_input = true) const {
    harness::DeviceCount d;
    harness::check(harness::detail::count_on_device(
                       n,
                       harness::detail::SameBits<float, harness::ArrayElement<float>, Transformed,
                                                 harness::detail::StillPoisoned>{{out}, {seed}, {}},
                       d),
                   "compare out");
    if (d.wrong > 0) {
      const float got = out[d.first], expected = Transformed{seed}(d.first);
      return fmt::format(
          "out: {} of {} elements wrong ({} never written); first mismatch at out[{}]: expected "
          "fmaf({}, in[{}] = {}, {}) = {}, got {}",
          d.wrong, n, d.unwritten, d.first, streams::SCALE, d.first, harness::show(in[d.first]),
          streams::OFFSET, harness::show(expected), harness::show(got));
    }
    std::size_t past = 0;
    for (std::size_t i = n; i < n + guard; ++i) past += !harness::still_poisoned(out[i]);
    if (past > 0)
      return fmt::format("wrote {} elements past out[{}], outside the output", past, n - 1);
    if (!check_input) return "";
    harness::DeviceCount changed;
    harness::check(
        harness::count_changed_on_device(in, n, seed, harness::RandomValues<float>{}, changed),
        "check in");
    if (changed.wrong > 0)
      return fmt::format("the input changed: {} elements of in differ after the call",
                         changed.wrong);
    return "";
  }
};

// n = 0; one element; sizes that are not a multiple of any chunk count; 2^24 + 1 (64 MiB); and
// 2^26 (256 MiB, the timing size), where a missing final synchronization cannot go unseen.
const std::vector<int> kOverlapSizes = {0, 1, 1000, 4099, (1 << 20) + 3, (1 << 24) + 1, 1 << 26};

void overlap_case(harness::Case& c, const int& n_int) {
  const std::size_t n = static_cast<std::size_t>(n_int);
  c.describe("pipeline", fmt::format("n = {} floats, in and out page-locked", n));
  c.admit(n);
  PipelineBuffers b(n, 4096);
  b.prepare(c.seed());
  const cudaError_t err = b.call();
  const std::string incomplete = err == cudaSuccess && n > 0 ? b.incomplete() : "";
  harness::check(cudaDeviceSynchronize(), "synchronize after pipeline");
  if (err != cudaSuccess)
    return c.fail(
        fmt::format("pipeline returned {}, expected cudaSuccess{}", error_text(err),
                    err == cudaErrorNotYetImplemented ? " (the stub's placeholder)" : ""));
  if (!incomplete.empty()) c.fail(incomplete);
  if (std::string w = b.wrong(c.seed()); !w.empty()) c.fail(w);
  if (std::string l = still_held("pipeline", b.before); !l.empty()) c.fail(l);
}

harness::HostSpeedTest overlap_speed() {
  const std::size_t bytes = kTimingN * sizeof(float);
  auto b = std::make_shared<PipelineBuffers>(kTimingN, 0, /*shared=*/true);
  harness::HostSpeedTest t;
  t.bytes = 2.0 * static_cast<double>(bytes);
  t.shape = "n = 67,108,864 floats (256 MiB in, 256 MiB out)";
  // The overlap bound: the slowest of the three stages over all n elements, each alone.
  t.calls.ceiling_ms = [b, bytes](std::uint64_t) {
    const double h2d = harness::wall_ms([&] {
      harness::check(cudaMemcpyAsync(b->d_x.data(), b->in, bytes, cudaMemcpyHostToDevice, 0),
                     "copy in");
    });
    const double kernel = harness::wall_ms([&] {
      harness::check(streams::launch_transform(b->d_x.data(), b->d_y.data(), b->n, 0),
                     "launch_transform");
    });
    const double d2h = harness::wall_ms([&] {
      harness::check(cudaMemcpyAsync(b->out, b->d_y.data(), bytes, cudaMemcpyDeviceToHost, 0),
                     "copy out");
    });
    return std::max({h2d, kernel, d2h});
  };
  t.calls.prepare = [b](std::uint64_t seed) { b->prepare(seed); };
  t.calls.call = [b] { return b->call(); };
  t.calls.on_return = [b](std::uint64_t) { return b->incomplete(); };
  t.calls.verify = [b](std::uint64_t seed) {
    // The input is checked unchanged on every correctness case; here the output and the leaks.
    if (std::string w = b->wrong(seed, /*check_input=*/false); !w.empty()) return w;
    return still_held("pipeline", b->before);
  };
  t.advice_when_slow = [] {
    return std::string(
        "The bound is the slowest stage alone; a pipeline comes near it only when the copy in of "
        "one chunk, the kernel of another and the copy out of a third run at once: several "
        "streams, several chunks per stream, no synchronization between chunks, and never the "
        "legacy default stream (stream 0), which waits for all other work");
  };
  return t;
}

}  // namespace

COURSE_TESTS {
  harness::correctness(Step::pinned, kPinnedSizes, harness::name_n, pinned_case);
  harness::correctness(
      Step::pinned, std::vector<int>{0}, [](const int&) { return "too_large"; },
      [](harness::Case& c, const int&) { too_large(c); });
  harness::host_speed(Step::pinned, pinned_speed);
  harness::correctness(Step::overlap, kOverlapSizes, harness::name_n, overlap_case);
  harness::host_speed(Step::overlap, overlap_speed);
}

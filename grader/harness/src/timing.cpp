#include "harness/timing.hpp"

#include <algorithm>
#include <chrono>

#include "harness/cuda_check.hpp"
#include "harness/device.hpp"
#include "harness/quiet_gpu.hpp"

namespace harness {

L2Flusher::L2Flusher(std::size_t l2_bytes) : bytes_(2 * l2_bytes) {
  if (bytes_ == 0) bytes_ = 8u << 20;
  check(cudaMalloc(&scratch_, bytes_), "allocate the L2 flush buffer");
}

L2Flusher::~L2Flusher() {
  if (context_lost().empty()) cudaFree(scratch_);  // see DeviceBuffer's destructor
}

void L2Flusher::flush(cudaStream_t stream) {
  value_ = (value_ + 1) & 0x7F;  // a different value each time: nothing to skip
  check(cudaMemsetAsync(scratch_, value_, bytes_, stream), "flush L2");
}

double gbps(double bytes, double ms) {
  return ms > 0 ? bytes / (ms * 1e-3) / 1e9 : 0;
}

namespace {

struct Events {
  explicit Events(std::size_t n) : list(n) {
    for (cudaEvent_t& e : list) check(cudaEventCreate(&e), "cudaEventCreate");
  }
  ~Events() {
    for (cudaEvent_t e : list) cudaEventDestroy(e);
  }
  float ms(std::size_t a, std::size_t b) const {
    float t = 0;
    check(cudaEventElapsedTime(&t, list[a], list[b]), "cudaEventElapsedTime");
    return t;
  }
  std::vector<cudaEvent_t> list;
};

constexpr std::size_t kBatch = 10;  // pairs per synchronization

}  // namespace

void reset_persisting_l2() {
  int device = 0, max_bytes = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&max_bytes, cudaDevAttrMaxPersistingL2CacheSize, device),
        "cudaDeviceGetAttribute(cudaDevAttrMaxPersistingL2CacheSize)");
  if (max_bytes == 0) return;  // no persisting L2 on this GPU
  check(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0),
        "cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0)");
  check(cudaCtxResetPersistingL2Cache(), "cudaCtxResetPersistingL2Cache");
}

PairedTiming time_pairs(const TimedLaunches& k, double bytes, std::optional<double> gate,
                        double impossible_above, const course::SamplingPolicy& policy,
                        L2Flusher& flusher, cudaStream_t stream) {
  wait_for_quiet_gpu();      // nothing is timed beside other work (at once if had: run_speed())
  std::uint64_t launch = 0;  // over warm-up and timed launches of both kernels
  auto prepare = [&] {
    if (k.prepare) k.prepare(launch, stream);
    ++launch;
    flusher.flush(stream);
  };
  reset_persisting_l2();
  for (int i = 0; i < 3; ++i) {  // warm-up: module load, clocks up, TLBs
    prepare();
    check(k.ceiling(stream), "launch the ceiling kernel");
    prepare();
    check(k.student(stream), "launch your kernel");
  }
  wait(stream, "warm-up launches");

  PairedTiming t;
  // A policy that may stop sooner than a batch (a step without a gate) takes smaller batches.
  const std::size_t batch = std::clamp<std::size_t>(policy.early_pairs, 1, kBatch);
  Events ev(4 * batch);
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    reset_persisting_l2();  // the stream is idle here: the reset precedes the whole batch
    for (std::size_t i = 0; i < batch; ++i) {
      prepare();
      check(cudaEventRecord(ev.list[4 * i], stream), "cudaEventRecord");
      check(k.ceiling(stream), "launch the ceiling kernel");
      check(cudaEventRecord(ev.list[4 * i + 1], stream), "cudaEventRecord");
      prepare();
      const std::uint64_t student_launch = launch - 1;
      check(cudaEventRecord(ev.list[4 * i + 2], stream), "cudaEventRecord");
      check(k.student(stream), "launch your kernel");
      check(cudaEventRecord(ev.list[4 * i + 3], stream), "cudaEventRecord");
      if (k.after_student) k.after_student(student_launch, t.ratio.size() + i, stream);
    }
    wait(stream, "timed launches");
    for (std::size_t i = 0; i < batch; ++i) {
      const double c = ev.ms(4 * i, 4 * i + 1), s = ev.ms(4 * i + 2, 4 * i + 3);
      t.ceiling_ms.push_back(c);
      t.student_ms.push_back(s);
      t.ratio.push_back(s > 0 ? c / s : 0);
    }
    t.ratio_summary = course::summarize(t.ratio);
    t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const course::SamplingState state = course::sampling_state(
        t.ratio_summary, gate, t.ratio.size(), t.seconds, policy, impossible_above);
    t.first_straddle_pairs = course::first_straddle(t.first_straddle_pairs, state, t.ratio.size());
    t.stopped = state;
    if (!course::keep_sampling(state)) break;
  }
  t.ceiling_gbps = gbps(bytes, course::summarize(t.ceiling_ms).median);
  t.student_gbps = gbps(bytes, course::summarize(t.student_ms).median);
  return t;
}

PairedTiming time_pairs(const Launch& ceiling, const Launch& student, double bytes,
                        std::optional<double> gate, const course::SamplingPolicy& policy,
                        L2Flusher& flusher, cudaStream_t stream) {
  return time_pairs(TimedLaunches{ceiling, student, {}, {}}, bytes, gate, course::kImpossibleRatio,
                    policy, flusher, stream);
}

course::Summary time_alone(const Launch& launch, int samples, L2Flusher& flusher,
                           cudaStream_t stream) {
  wait_for_quiet_gpu();  // as time_pairs()
  Events ev(2);
  std::vector<double> ms;
  for (int i = 0; i < samples + 2; ++i) {
    flusher.flush(stream);
    check(cudaEventRecord(ev.list[0], stream), "cudaEventRecord");
    check(launch(stream), "launch");
    check(cudaEventRecord(ev.list[1], stream), "cudaEventRecord");
    wait(stream, "timed launch");
    if (i >= 2) ms.push_back(ev.ms(0, 1));  // first two are warm-up
  }
  return course::summarize(ms);
}

double memcpy_gbps(void* dst, const void* src, std::size_t bytes, L2Flusher& flusher) {
  const course::Summary s = time_alone(
      [&](cudaStream_t st) {
        return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, st);
      },
      15, flusher);
  return gbps(2.0 * static_cast<double>(bytes), s.median);
}

long long timing_side(std::size_t buffers, std::size_t element_bytes) {
  const DeviceInfo& d = current_device();
  auto bytes = [&](long long side) {
    return static_cast<double>(buffers * element_bytes) * static_cast<double>(side) * side;
  };
  long long side = 8192;
  while (bytes(side) < 4.0 * d.l2_bytes) side *= 2;
  while (side > 256 && bytes(side) + 2.0 * d.l2_bytes > 0.7 * d.free_bytes) side /= 2;
  return side / 32 * 32;
}

long long timing_elements(std::size_t buffers, std::size_t element_bytes) {
  const long long side = timing_side(buffers, element_bytes);
  return side * side;
}

}  // namespace harness

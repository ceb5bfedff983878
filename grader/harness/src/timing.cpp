#include "harness/timing.hpp"

#include <chrono>

#include "harness/cuda_check.hpp"

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

PairedTiming time_pairs(const Launch& ceiling, const Launch& student, double bytes,
                        std::optional<double> gate, const course::SamplingPolicy& policy,
                        L2Flusher& flusher, cudaStream_t stream) {
  for (int i = 0; i < 3; ++i) {  // warm-up: module load, clocks up, TLBs
    flusher.flush(stream);
    check(ceiling(stream), "launch the ceiling kernel");
    flusher.flush(stream);
    check(student(stream), "launch your kernel");
  }
  wait(stream, "warm-up launches");

  PairedTiming t;
  Events ev(4 * kBatch);
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    for (std::size_t i = 0; i < kBatch; ++i) {
      flusher.flush(stream);
      check(cudaEventRecord(ev.list[4 * i], stream), "cudaEventRecord");
      check(ceiling(stream), "launch the ceiling kernel");
      check(cudaEventRecord(ev.list[4 * i + 1], stream), "cudaEventRecord");
      flusher.flush(stream);
      check(cudaEventRecord(ev.list[4 * i + 2], stream), "cudaEventRecord");
      check(student(stream), "launch your kernel");
      check(cudaEventRecord(ev.list[4 * i + 3], stream), "cudaEventRecord");
    }
    wait(stream, "timed launches");
    for (std::size_t i = 0; i < kBatch; ++i) {
      const double c = ev.ms(4 * i, 4 * i + 1), s = ev.ms(4 * i + 2, 4 * i + 3);
      t.ceiling_ms.push_back(c);
      t.student_ms.push_back(s);
      t.ratio.push_back(s > 0 ? c / s : 0);
    }
    t.ratio_summary = course::summarize(t.ratio);
    t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const course::SamplingState state =
        course::sampling_state(t.ratio_summary, gate, t.ratio.size(), t.seconds, policy);
    t.first_straddle_pairs = course::first_straddle(t.first_straddle_pairs, state, t.ratio.size());
    if (!course::keep_sampling(state)) break;
  }
  t.ceiling_gbps = gbps(bytes, course::summarize(t.ceiling_ms).median);
  t.student_gbps = gbps(bytes, course::summarize(t.student_ms).median);
  return t;
}

course::Summary time_alone(const Launch& launch, int samples, L2Flusher& flusher,
                           cudaStream_t stream) {
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

}  // namespace harness

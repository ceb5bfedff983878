// A student's trial of lesson 14_streams (tenth session, written from the texts alone on a
// machine without a GPU; compiled for sm_90, never run). Grade it on a GPU: copy it over
// exercises/14_streams/streams.cu in a scratch clone, run ./build/grader 14_streams and --sanitize.

// Lesson 14_streams: write the host functions below, then run `./build/grader 14_streams`.
//
// Nothing here is a kernel: the course's launch_transform (lessons/14_streams/launch.cu) is the
// only kernel, and you call it. lessons/14_streams/streams.cuh documents every function, and
// README.md explains every call you need.
#include <algorithm>
#include <cstdint>

#include "streams.cuh"

namespace streams {

namespace {

// Pipeline shape: chunks are dealt to kStreams streams in turn. 4 x 16 is the configuration the
// README reports for the reference (80-83% of the overlap bound on an H200); more chunks shrink
// the first copy-in and last copy-out that run alone, but each chunk costs three API calls.
constexpr int kStreams = 4;
constexpr std::size_t kChunks = 16;
// Do not cut small arrays into tiny pieces: below this a chunk's fixed cost dominates.
constexpr std::size_t kMinChunk = std::size_t(1) << 16;  // 64 Ki floats = 256 KiB
// Keep chunk boundaries 4 KiB-aligned (1024 floats) so every copy starts on a page boundary.
constexpr std::size_t kAlign = 1024;

// Keeps the first error; later errors never overwrite it.
inline void keep_first(cudaError_t& first, cudaError_t err) {
  if (first == cudaSuccess && err != cudaSuccess) first = err;
}

}  // namespace

cudaError_t pinned_alloc(float** p, std::size_t n) {
  if (p == nullptr) return cudaErrorInvalidValue;
  *p = nullptr;
  if (n == 0) return cudaSuccess;
  // n * sizeof(float) must not wrap: a wrapped size could "succeed" with a tiny buffer.
  if (n > SIZE_MAX / sizeof(float)) return cudaErrorMemoryAllocation;
  void* raw = nullptr;
  const cudaError_t err = cudaMallocHost(&raw, n * sizeof(float));
  if (err != cudaSuccess) return err;  // *p is still nullptr
  *p = static_cast<float*>(raw);
  return cudaSuccess;
}

cudaError_t pinned_free(float* p) {
  if (p == nullptr) return cudaSuccess;
  return cudaFreeHost(p);
}

cudaError_t pipeline(const float* in, float* out, float* d_x, float* d_y, std::size_t n) {
  if (n == 0) return cudaSuccess;

  // Chunk size: about n / kChunks, rounded up to kAlign, at least kMinChunk (and never > n).
  std::size_t chunk = (n + kChunks - 1) / kChunks;
  chunk = std::max(chunk, kMinChunk);
  chunk = (chunk + kAlign - 1) / kAlign * kAlign;
  chunk = std::min(chunk, n);
  const std::size_t chunks = (n + chunk - 1) / chunk;
  // No more streams than chunks: an idle stream costs a create and a destroy for nothing.
  const int count = static_cast<int>(std::min<std::size_t>(kStreams, chunks));

  cudaStream_t s[kStreams] = {};
  int created = 0;
  cudaError_t first_err = cudaSuccess;
  for (; created < count; ++created) {
    const cudaError_t err = cudaStreamCreateWithFlags(&s[created], cudaStreamNonBlocking);
    if (err != cudaSuccess) {
      keep_first(first_err, err);
      break;  // s[0 .. created) exist and are destroyed below
    }
  }

  // Depth first: each chunk's copy in, transform and copy out on its stream, in order. The chunks
  // touch disjoint parts of d_x, d_y, in and out, so streams need no ordering between them.
  if (first_err == cudaSuccess) {
    for (std::size_t c = 0; c < chunks; ++c) {
      const cudaStream_t st = s[c % static_cast<std::size_t>(count)];
      const std::size_t first = c * chunk;
      const std::size_t m = std::min(chunk, n - first);
      const std::size_t bytes = m * sizeof(float);
      cudaError_t err = cudaMemcpyAsync(d_x + first, in + first, bytes, cudaMemcpyHostToDevice, st);
      if (err == cudaSuccess) err = launch_transform(d_x + first, d_y + first, m, st);  // st, not 0
      if (err == cudaSuccess)
        err = cudaMemcpyAsync(out + first, d_y + first, bytes, cudaMemcpyDeviceToHost, st);
      if (err != cudaSuccess) {
        keep_first(first_err, err);
        break;  // stop enqueueing; what is enqueued is waited for below
      }
    }
  }

  // Every path: wait for each stream (cudaStreamDestroy alone would not wait), then destroy it.
  for (int k = 0; k < created; ++k) {
    keep_first(first_err, cudaStreamSynchronize(s[k]));
    keep_first(first_err, cudaStreamDestroy(s[k]));
  }
  return first_err;
}

}  // namespace streams

// The course's side of lesson 14: the transform kernel and its launcher, and the counting wraps of
// the runtime calls that create and destroy streams, events and page-locked buffers (GNU ld
// --wrap, from lessons/course.json "link_wraps"; every call in the lesson's executables reaches
// __wrap_NAME, which calls the runtime's own NAME, __real_NAME, and counts it when it succeeds).
#include <atomic>

#include "streams.cuh"

namespace streams {

namespace {

__global__ void transform(const float* __restrict__ x, float* __restrict__ y, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __fmaf_rn(SCALE, x[i], OFFSET);
}

std::atomic<long long> g_streams{0}, g_events{0}, g_pinned{0}, g_registered{0};

cudaError_t counted(cudaError_t err, std::atomic<long long>& counter, long long delta) {
  if (err == cudaSuccess) counter += delta;
  return err;
}

}  // namespace

cudaError_t launch_transform(const float* x, float* y, std::size_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  const std::size_t blocks = (n + BLOCK_THREADS - 1) / BLOCK_THREADS;
  transform<<<static_cast<unsigned>(blocks), BLOCK_THREADS, 0, stream>>>(x, y, n);
  return cudaGetLastError();
}

Resources live_resources() {
  return {g_streams.load(), g_events.load(), g_pinned.load(), g_registered.load()};
}

}  // namespace streams

using streams::counted;

extern "C" {
cudaError_t __real_cudaStreamCreate(cudaStream_t*);
cudaError_t __real_cudaStreamCreateWithFlags(cudaStream_t*, unsigned);
cudaError_t __real_cudaStreamCreateWithPriority(cudaStream_t*, unsigned, int);
cudaError_t __real_cudaStreamDestroy(cudaStream_t);
cudaError_t __real_cudaEventCreate(cudaEvent_t*);
cudaError_t __real_cudaEventCreateWithFlags(cudaEvent_t*, unsigned);
cudaError_t __real_cudaEventDestroy(cudaEvent_t);
cudaError_t __real_cudaMallocHost(void**, size_t);
cudaError_t __real_cudaHostAlloc(void**, size_t, unsigned);
cudaError_t __real_cudaFreeHost(void*);
cudaError_t __real_cudaHostRegister(void*, size_t, unsigned);
cudaError_t __real_cudaHostUnregister(void*);

cudaError_t __wrap_cudaStreamCreate(cudaStream_t* s) {
  return counted(__real_cudaStreamCreate(s), streams::g_streams, 1);
}
cudaError_t __wrap_cudaStreamCreateWithFlags(cudaStream_t* s, unsigned flags) {
  return counted(__real_cudaStreamCreateWithFlags(s, flags), streams::g_streams, 1);
}
cudaError_t __wrap_cudaStreamCreateWithPriority(cudaStream_t* s, unsigned flags, int priority) {
  return counted(__real_cudaStreamCreateWithPriority(s, flags, priority), streams::g_streams, 1);
}
cudaError_t __wrap_cudaStreamDestroy(cudaStream_t s) {
  return counted(__real_cudaStreamDestroy(s), streams::g_streams, -1);
}
cudaError_t __wrap_cudaEventCreate(cudaEvent_t* e) {
  return counted(__real_cudaEventCreate(e), streams::g_events, 1);
}
cudaError_t __wrap_cudaEventCreateWithFlags(cudaEvent_t* e, unsigned flags) {
  return counted(__real_cudaEventCreateWithFlags(e, flags), streams::g_events, 1);
}
cudaError_t __wrap_cudaEventDestroy(cudaEvent_t e) {
  return counted(__real_cudaEventDestroy(e), streams::g_events, -1);
}
cudaError_t __wrap_cudaMallocHost(void** p, size_t bytes) {
  return counted(__real_cudaMallocHost(p, bytes), streams::g_pinned, 1);
}
cudaError_t __wrap_cudaHostAlloc(void** p, size_t bytes, unsigned flags) {
  return counted(__real_cudaHostAlloc(p, bytes, flags), streams::g_pinned, 1);
}
cudaError_t __wrap_cudaFreeHost(void* p) {
  // cudaFreeHost(nullptr) succeeds and frees nothing.
  return counted(__real_cudaFreeHost(p), streams::g_pinned, p ? -1 : 0);
}
cudaError_t __wrap_cudaHostRegister(void* p, size_t bytes, unsigned flags) {
  return counted(__real_cudaHostRegister(p, bytes, flags), streams::g_registered, 1);
}
cudaError_t __wrap_cudaHostUnregister(void* p) {
  return counted(__real_cudaHostUnregister(p), streams::g_registered, -1);
}
}

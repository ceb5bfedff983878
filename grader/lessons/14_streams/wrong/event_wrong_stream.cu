// Wrong on purpose: one stream per stage (copy in, kernel, copy out) ordered by events, but the
// event that marks a chunk's copy in as done is recorded on the kernel's stream, where nothing
// precedes it: the kernel waits for nothing and reads d_x before the chunk has arrived.
#include "parts.cuh"

namespace streams {
RIGHT_PINNED

cudaError_t pipeline(const float* in, float* out, float* d_x, float* d_y, std::size_t n) {
  if (n == 0) return cudaSuccess;
  constexpr std::size_t kChunks = 16;
  cudaStream_t copy_in = nullptr, compute = nullptr, copy_out = nullptr;
  cudaEvent_t arrived[kChunks] = {}, done[kChunks] = {};
  cudaError_t err = cudaStreamCreateWithFlags(&copy_in, cudaStreamNonBlocking);
  if (err == cudaSuccess) err = cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking);
  if (err == cudaSuccess) err = cudaStreamCreateWithFlags(&copy_out, cudaStreamNonBlocking);
  for (std::size_t c = 0; c < kChunks && err == cudaSuccess; ++c) {
    err = cudaEventCreateWithFlags(&arrived[c], cudaEventDisableTiming);
    if (err == cudaSuccess) err = cudaEventCreateWithFlags(&done[c], cudaEventDisableTiming);
  }
  const std::size_t chunk = (n + kChunks - 1) / kChunks;
  for (std::size_t c = 0; err == cudaSuccess && c * chunk < n; ++c) {
    const std::size_t first = c * chunk, count = std::min(chunk, n - first);
    const std::size_t bytes = count * sizeof(float);
    err = cudaMemcpyAsync(d_x + first, in + first, bytes, cudaMemcpyHostToDevice, copy_in);
    if (err == cudaSuccess) err = cudaEventRecord(arrived[c], compute);  // should be copy_in
    if (err == cudaSuccess) err = cudaStreamWaitEvent(compute, arrived[c], 0);
    if (err == cudaSuccess) err = launch_transform(d_x + first, d_y + first, count, compute);
    if (err == cudaSuccess) err = cudaEventRecord(done[c], compute);
    if (err == cudaSuccess) err = cudaStreamWaitEvent(copy_out, done[c], 0);
    if (err == cudaSuccess)
      err = cudaMemcpyAsync(out + first, d_y + first, bytes, cudaMemcpyDeviceToHost, copy_out);
  }
  for (cudaStream_t s : {copy_in, compute, copy_out}) {
    if (!s) continue;
    const cudaError_t waited = cudaStreamSynchronize(s);
    if (err == cudaSuccess) err = waited;
    const cudaError_t destroyed = cudaStreamDestroy(s);
    if (err == cudaSuccess) err = destroyed;
  }
  for (std::size_t c = 0; c < kChunks; ++c) {
    if (arrived[c]) cudaEventDestroy(arrived[c]);
    if (done[c]) cudaEventDestroy(done[c]);
  }
  return err;
}
}  // namespace streams

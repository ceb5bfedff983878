// Lesson 14_streams: write the host functions below, then run `./build/grader 14_streams`.
//
// Nothing here is a kernel: the course's launch_transform (lessons/14_streams/launch.cu) is the
// only kernel, and you call it. lessons/14_streams/streams.cuh documents every function, and
// README.md explains every call you need.
#include "streams.cuh"

namespace streams {

cudaError_t pinned_alloc(float** p, std::size_t n) {
  // TODO(pinned): set *p = nullptr first. For n == 0 return cudaSuccess. Otherwise allocate
  // n floats of page-locked host memory with cudaMallocHost (bytes = n * sizeof(float)); on
  // failure leave *p == nullptr and return the error.
  *p = nullptr;
  (void)n;
  return cudaErrorNotYetImplemented;  // "not written yet": every test of step `pinned` fails
}

cudaError_t pinned_free(float* p) {
  // TODO(pinned): free p the way pinned_alloc allocated it (cudaFreeHost); nullptr is fine.
  (void)p;
  return cudaErrorNotYetImplemented;
}

cudaError_t pipeline(const float* in, float* out, float* d_x, float* d_y, std::size_t n) {
  // TODO(overlap): for n == 0 return cudaSuccess. Then:
  //   1. create a few streams (cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking));
  //   2. cut [0, n) into chunks; for chunk c on stream s[c % streams]: cudaMemcpyAsync the
  //      chunk of `in` to the same place in d_x, launch_transform(d_x + first, d_y + first,
  //      count, stream), cudaMemcpyAsync the chunk of d_y back to `out`;
  //   3. on EVERY path: cudaStreamSynchronize and cudaStreamDestroy each stream you created,
  //      and return the first error.
  (void)in, (void)out, (void)d_x, (void)d_y, (void)n;
  return cudaErrorNotYetImplemented;  // every test of step `overlap` fails
}

}  // namespace streams

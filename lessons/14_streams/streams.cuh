/// @file streams.cuh
/// @brief Lesson 14_streams: the host functions a student writes, and the course's kernel and
/// launcher they drive.
///
/// The task: y[i] = fmaf(SCALE, x[i], OFFSET) for an array that starts and ends in HOST memory,
/// moved to the GPU, transformed and moved back. The kernel costs little per byte, so the
/// copies between host and device decide the time. Two steps:
///
/// - step `pinned`: pinned_alloc() and pinned_free(), the host buffers a transfer needs,
///   page-locked (cudaMallocHost, or malloc + cudaHostRegister), freed on every path. The course
///   copies 64 MiB to the device and back through them and times it against the same copies
///   through page-locked buffers of its own.
/// - step `overlap`: pipeline(), the whole round trip cut into chunks on streams the function
///   creates, so that copies in both directions and kernels of different chunks run at once.
///   Timed on the wall clock from a synchronized device to a synchronized device, against the
///   overlap bound: the slowest of the three stages (all bytes host to device, the kernel on all
///   of them, all bytes device to host), each timed alone in the same run.
///
/// Units: element counts and indices are `size_t`; sizes in bytes are `size_t`; times in ms;
/// GB/s = 10^9 B/s.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

/// Lesson 14_streams: host functions (student), the transform kernel's launcher (course).
namespace streams {

/// The transform: y[i] = fmaf(SCALE, x[i], OFFSET), one rounding (a fused multiply-add).
constexpr float SCALE = 1.75f;
/// See SCALE.
constexpr float OFFSET = -0.5f;

/// Threads per block of launch_transform.
constexpr int BLOCK_THREADS = 256;

// ---- Step `pinned` (exercises/14_streams/streams.cu) ----

/// Allocates `n` floats of page-locked (pinned) host memory and stores its address in `*p`:
/// cudaMallocHost, or an ordinary allocation registered with cudaHostRegister.
/// @param p where the address goes; set to nullptr when n == 0 and when the call fails
/// @param n number of floats, >= 0; n == 0 allocates nothing and returns cudaSuccess
/// @return cudaSuccess, or the error of the failed allocation (nothing stays allocated then)
cudaError_t pinned_alloc(float** p, std::size_t n);

/// Frees what pinned_alloc() returned, the way it was allocated (cudaFreeHost, or
/// cudaHostUnregister and then the ordinary free). A null pointer does nothing.
/// @return cudaSuccess, or the first error of the calls it made
cudaError_t pinned_free(float* p);

// ---- Step `overlap` (exercises/14_streams/streams.cu) ----

/// y = fmaf(SCALE, in, OFFSET) for n floats, host memory to host memory, through the GPU:
/// copies `in` to `d_x`, transforms `d_x` into `d_y` with launch_transform(), copies `d_y` to
/// `out`, cut into chunks on streams the function creates (and destroys before it returns), so
/// that the copies of one chunk overlap the kernel and copies of others. Synchronous: when it
/// returns, `out` holds every element (the tests read it without synchronizing), and no work it
/// started is still running.
/// @param in  n floats, page-locked host memory (the course's cudaMallocHost), read only
/// @param out n floats, page-locked host memory, written
/// @param d_x n floats, device memory: workspace for the copies in
/// @param d_y n floats, device memory: workspace for the transform's results
/// @param n   number of elements, >= 0; n == 0 does nothing and returns cudaSuccess
/// @return cudaSuccess, or the first error of the calls it made; the streams it created are
///         destroyed on every path
cudaError_t pipeline(const float* in, float* out, float* d_x, float* d_y, std::size_t n);

// ---- The course's launcher (lessons/14_streams/launch.cu) ----

/// Launches the transform y[i] = fmaf(SCALE, x[i], OFFSET), i < n, on `stream`: BLOCK_THREADS
/// threads per block, one element per thread. Asynchronous; never synchronizes.
/// @param x      n floats, device memory, read
/// @param y      n floats, device memory, written; does not overlap x
/// @param n      number of elements (0: nothing is launched)
/// @param stream stream of the launch, always given: 0 is the legacy default stream, which does
///               not wait for streams made with cudaStreamNonBlocking, so a transform left there
///               by a forgotten argument could read d_x before its copy in lands (no default
///               argument, so that forgetting it does not compile)
/// @return the launch error (cudaGetLastError() right after the launch)
cudaError_t launch_transform(const float* x, float* y, std::size_t n, cudaStream_t stream);

// ---- For the hidden tests and the bench only: never call these from your code ----

/// What the process holds of each kind, counted by the course's link-time wraps of the runtime
/// calls (lessons/course.json "link_wraps"): successful creations minus successful destructions,
/// by any code of the process since it started.
struct Resources {
  long long streams = 0;     ///< cudaStreamCreate, ...WithFlags, ...WithPriority; cudaStreamDestroy
  long long events = 0;      ///< cudaEventCreate, ...WithFlags; cudaEventDestroy
  long long pinned = 0;      ///< cudaMallocHost, cudaHostAlloc; cudaFreeHost
  long long registered = 0;  ///< cudaHostRegister; cudaHostUnregister
};

/// The counts now.
Resources live_resources();

}  // namespace streams

// The course-owned launches of lesson 12_histogram: blocks of 256 threads, one wave of blocks at
// most (histogram_grid), the bins zeroed before every kernel, and the ceiling:
// cub::DeviceHistogram::HistogramEven on the same bytes.
#include <cub/cub.cuh>

#include <algorithm>
#include <cstddef>

#include "histogram.cuh"

namespace histogram {

namespace {

constexpr long long kMaxBytes = 1LL << 40;
// Bytes one block covers per pass at most (histogram_vector: 16 per thread): the grid never has
// more blocks than ceil(n / kBlockBytes).
constexpr long long kBlockBytes = 16LL * BLOCK_THREADS;

// One wave of blocks on the current device, asked once per process (the launches of a timed loop
// must not wait for host queries; one device per process, as the grader runs its tests).
cudaError_t wave(int* blocks) {
  static int cached = 0;
  if (cached > 0) {
    *blocks = cached;
    return cudaSuccess;
  }
  int device = 0, sms = 0;
  if (cudaError_t err = cudaGetDevice(&device); err != cudaSuccess) return err;
  if (cudaError_t err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
      err != cudaSuccess)
    return err;
  int fit = 1 << 30;
  const void* kernels[] = {reinterpret_cast<const void*>(histogram_global),
                           reinterpret_cast<const void*>(histogram_shared),
                           reinterpret_cast<const void*>(histogram_vector)};
  for (const void* k : kernels) {
    int per_sm = 0;
    if (cudaError_t err =
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, BLOCK_THREADS, 0);
        err != cudaSuccess)
      return err;
    fit = std::min(fit, per_sm);
  }
  cached = std::max(1, fit) * sms;
  *blocks = cached;
  return cudaSuccess;
}

using Kernel = void (*)(const unsigned char*, long long, unsigned*);

cudaError_t launch(Kernel kernel, const unsigned char* data, unsigned* bins, long long n,
                   cudaStream_t stream) {
  if (data == nullptr || bins == nullptr) return cudaErrorInvalidValue;
  unsigned blocks = 0;
  if (cudaError_t err = histogram_grid(n, &blocks); err != cudaSuccess) return err;
  if (cudaError_t err = cudaMemsetAsync(bins, 0, sizeof(unsigned) * BINS, stream);
      err != cudaSuccess)
    return err;
  kernel<<<blocks, BLOCK_THREADS, 0, stream>>>(data, n, bins);
  return cudaGetLastError();
}

}  // namespace

cudaError_t histogram_grid(long long n, unsigned* blocks) {
  if (n < 1 || n >= kMaxBytes || blocks == nullptr) return cudaErrorInvalidValue;
  int full = 0;
  if (cudaError_t err = wave(&full); err != cudaSuccess) return err;
  const long long needed = (n + kBlockBytes - 1) / kBlockBytes;
  *blocks = static_cast<unsigned>(std::min<long long>(full, needed));
  return cudaSuccess;
}

cudaError_t launch_histogram_global(const unsigned char* data, unsigned* bins, long long n,
                                    cudaStream_t stream) {
  return launch(histogram_global, data, bins, n, stream);
}

cudaError_t launch_histogram_shared(const unsigned char* data, unsigned* bins, long long n,
                                    cudaStream_t stream) {
  return launch(histogram_shared, data, bins, n, stream);
}

cudaError_t launch_histogram_vector(const unsigned char* data, unsigned* bins, long long n,
                                    cudaStream_t stream) {
  return launch(histogram_vector, data, bins, n, stream);
}

cudaError_t launch_cub_histogram(const unsigned char* data, unsigned* bins, long long n,
                                 cudaStream_t stream) {
  if (data == nullptr || bins == nullptr || n < 1 || n >= kMaxBytes) return cudaErrorInvalidValue;
  // CUB's temporary storage, kept for the life of the process and grown when a call needs more.
  static void* storage = nullptr;
  static std::size_t storage_bytes = 0;
  std::size_t need = 0;
  if (cudaError_t err = cub::DeviceHistogram::HistogramEven(nullptr, need, data, bins, BINS + 1, 0,
                                                            BINS, n, stream);
      err != cudaSuccess)
    return err;
  if (need > storage_bytes || storage == nullptr) {
    if (storage != nullptr) {
      if (cudaError_t err = cudaFree(storage); err != cudaSuccess) return err;
      storage = nullptr;
      storage_bytes = 0;
    }
    const std::size_t size = std::max<std::size_t>(need, 1);  // null means "size query" to CUB
    if (cudaError_t err = cudaMalloc(&storage, size); err != cudaSuccess) return err;
    storage_bytes = size;
  }
  std::size_t bytes = storage_bytes;
  return cub::DeviceHistogram::HistogramEven(storage, bytes, data, bins, BINS + 1, 0, BINS, n,
                                             stream);
}

}  // namespace histogram

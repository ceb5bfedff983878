// The course-owned launches of lesson 11_scan: blocks of 256 threads everywhere; the chunk grid of
// the reduce-then-scan kernels (one full wave); the look-back's tile status; the ceilings: a copy
// rung for block_scan, cub::DeviceScan::InclusiveSum and cub::DeviceSelect::If.
#include <cub/cub.cuh>

#include <algorithm>
#include <cstddef>

#include "scan.cuh"

namespace scan {

namespace {

// The rung of step block_scan: block_scan's grid, block, loads and stores, without the scan.
__global__ void block_copy_rung(const int* __restrict__ x, int* __restrict__ inclusive,
                                int* __restrict__ exclusive, int n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    const int v = x[i];
    inclusive[i] = v;
    exclusive[i] = v;
  }
}

// n < 2^40 keeps every index, tile count and grid far from overflow.
constexpr long long kMaxScanElements = 1LL << 40;
constexpr long long kMaxCompactElements = (1LL << 31) - 1;

// Device memory kept for the life of the process (one device per process: the grader's tests run
// on the current device only), grown when a call needs more; never inside a timed launch, since
// the grader runs every launch once, untimed, before it times it.
struct Scratch {
  void* memory = nullptr;
  std::size_t bytes = 0;
  cudaError_t reserve(std::size_t need) {
    need = std::max<std::size_t>(need, 1);  // CUB reads a null pointer as a size query
    if (need <= bytes) return cudaSuccess;
    if (memory != nullptr) {
      if (cudaError_t err = cudaFree(memory); err != cudaSuccess) return err;
      memory = nullptr;
      bytes = 0;
    }
    if (cudaError_t err = cudaMalloc(&memory, need); err != cudaSuccess) return err;
    bytes = need;
    return cudaSuccess;
  }
};

// One scratch per use, so that no two launchers share memory.
enum class Use { chunk_sums, compact_counts, tile_status, cub_scan, cub_select, count };
Scratch& scratch(Use use) {
  static Scratch s[static_cast<int>(Use::count)];
  return s[static_cast<int>(use)];
}

// Blocks per SM that fit for every chunk kernel, and the SM count: asked once per process (the
// launches of a timed loop must not wait for host queries).
cudaError_t chunk_blocks_per_device(int* blocks) {
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
  const void* kernels[] = {
      reinterpret_cast<const void*>(reduce_chunks), reinterpret_cast<const void*>(scan_chunks),
      reinterpret_cast<const void*>(count_chunks), reinterpret_cast<const void*>(compact_chunks)};
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

unsigned blocks_for(long long n, long long per_block) {
  return static_cast<unsigned>((n + per_block - 1) / per_block);
}

}  // namespace

cudaError_t launch_block_scan(const int* x, int* inclusive, int* exclusive, int n,
                              cudaStream_t stream) {
  if (n < 1) return cudaErrorInvalidValue;
  block_scan<<<blocks_for(n, BLOCK_THREADS), BLOCK_THREADS, 0, stream>>>(x, inclusive, exclusive,
                                                                         n);
  return cudaGetLastError();
}

cudaError_t launch_block_copy_rung(const int* x, int* inclusive, int* exclusive, int n,
                                   cudaStream_t stream) {
  if (n < 1) return cudaErrorInvalidValue;
  block_copy_rung<<<blocks_for(n, BLOCK_THREADS), BLOCK_THREADS, 0, stream>>>(x, inclusive,
                                                                              exclusive, n);
  return cudaGetLastError();
}

cudaError_t chunk_grid(long long n, ChunkGrid* g) {
  if (n < 1 || n >= kMaxScanElements || g == nullptr) return cudaErrorInvalidValue;
  int wave = 0;
  if (cudaError_t err = chunk_blocks_per_device(&wave); err != cudaSuccess) return err;
  const long long tiles = (n + TILE_ITEMS - 1) / TILE_ITEMS;
  const long long tiles_per_chunk = (tiles + wave - 1) / wave;
  g->tiles = tiles;
  g->chunk = tiles_per_chunk * TILE_ITEMS;
  g->chunks = static_cast<int>((tiles + tiles_per_chunk - 1) / tiles_per_chunk);
  return cudaSuccess;
}

cudaError_t launch_device_scan(const int* x, int* out, long long n, cudaStream_t stream) {
  ChunkGrid g;
  if (cudaError_t err = chunk_grid(n, &g); err != cudaSuccess) return err;
  Scratch& s = scratch(Use::chunk_sums);
  if (cudaError_t err = s.reserve(sizeof(int) * static_cast<std::size_t>(g.chunks));
      err != cudaSuccess)
    return err;
  int* sums = static_cast<int*>(s.memory);
  reduce_chunks<<<g.chunks, BLOCK_THREADS, 0, stream>>>(x, sums, n, g.chunk);
  if (cudaError_t err = cudaGetLastError(); err != cudaSuccess) return err;
  scan_chunk_sums<<<1, BLOCK_THREADS, 0, stream>>>(sums, g.chunks);
  if (cudaError_t err = cudaGetLastError(); err != cudaSuccess) return err;
  scan_chunks<<<g.chunks, BLOCK_THREADS, 0, stream>>>(x, sums, out, n, g.chunk);
  return cudaGetLastError();
}

cudaError_t launch_look_back_scan(const int* x, int* out, long long n, cudaStream_t stream) {
  if (n < 1 || n >= kMaxScanElements) return cudaErrorInvalidValue;
  const long long tiles = (n + TILE_ITEMS - 1) / TILE_ITEMS;
  const std::size_t per_array = sizeof(int) * static_cast<std::size_t>(tiles);
  Scratch& s = scratch(Use::tile_status);
  if (cudaError_t err = s.reserve(3 * per_array + sizeof(unsigned)); err != cudaSuccess) return err;
  char* base = static_cast<char*>(s.memory);
  TileStatus status{reinterpret_cast<int*>(base), reinterpret_cast<int*>(base + per_array),
                    reinterpret_cast<int*>(base + 2 * per_array),
                    reinterpret_cast<unsigned*>(base + 3 * per_array)};
  // Flags and the ticket counter start at 0; aggregates and prefixes are written before they are
  // announced, so they need no reset.
  if (cudaError_t err = cudaMemsetAsync(status.flag, 0, per_array, stream); err != cudaSuccess)
    return err;
  if (cudaError_t err = cudaMemsetAsync(status.next_tile, 0, sizeof(unsigned), stream);
      err != cudaSuccess)
    return err;
  look_back_scan<<<static_cast<unsigned>(tiles), BLOCK_THREADS, 0, stream>>>(x, out, n, status);
  return cudaGetLastError();
}

cudaError_t launch_compact(const int* x, int* out, long long* count, long long n,
                           cudaStream_t stream) {
  if (n < 1 || n > kMaxCompactElements) return cudaErrorInvalidValue;
  ChunkGrid g;
  if (cudaError_t err = chunk_grid(n, &g); err != cudaSuccess) return err;
  Scratch& s = scratch(Use::compact_counts);
  if (cudaError_t err = s.reserve(sizeof(int) * static_cast<std::size_t>(g.chunks));
      err != cudaSuccess)
    return err;
  int* counts = static_cast<int*>(s.memory);
  count_chunks<<<g.chunks, BLOCK_THREADS, 0, stream>>>(x, counts, n, g.chunk);
  if (cudaError_t err = cudaGetLastError(); err != cudaSuccess) return err;
  scan_chunk_sums<<<1, BLOCK_THREADS, 0, stream>>>(counts, g.chunks);
  if (cudaError_t err = cudaGetLastError(); err != cudaSuccess) return err;
  compact_chunks<<<g.chunks, BLOCK_THREADS, 0, stream>>>(x, counts, out, count, n, g.chunk);
  return cudaGetLastError();
}

cudaError_t launch_cub_inclusive_sum(const int* x, int* out, long long n, cudaStream_t stream) {
  if (n < 1 || n >= kMaxScanElements) return cudaErrorInvalidValue;
  std::size_t need = 0;
  if (cudaError_t err = cub::DeviceScan::InclusiveSum(nullptr, need, x, out, n, stream);
      err != cudaSuccess)
    return err;
  Scratch& s = scratch(Use::cub_scan);
  if (cudaError_t err = s.reserve(need); err != cudaSuccess) return err;
  std::size_t bytes = s.bytes;
  return cub::DeviceScan::InclusiveSum(s.memory, bytes, x, out, n, stream);
}

namespace {
// keep() as the functor cub::DeviceSelect::If calls.
struct Keep {
  __device__ bool operator()(int v) const { return keep(v); }
};
}  // namespace

cudaError_t launch_cub_select(const int* x, int* out, long long* count, long long n,
                              cudaStream_t stream) {
  if (n < 1 || n > kMaxCompactElements) return cudaErrorInvalidValue;
  std::size_t need = 0;
  if (cudaError_t err = cub::DeviceSelect::If(nullptr, need, x, out, count, n, Keep{}, stream);
      err != cudaSuccess)
    return err;
  Scratch& s = scratch(Use::cub_select);
  if (cudaError_t err = s.reserve(need); err != cudaSuccess) return err;
  std::size_t bytes = s.bytes;
  return cub::DeviceSelect::If(s.memory, bytes, x, out, count, n, Keep{}, stream);
}

}  // namespace scan

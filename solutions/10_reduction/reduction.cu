// Lesson 10_reduction: the course's solution (the stub in exercises/10_reduction/reduction.cu,
// completed).
//
//   step narrow_rows:       a team of 1-32 lanes per row, shuffles of the team's width
//   step wide_rows:         a row split over several blocks, one atomicAdd per block
//   step arg_max:           (value, index) per thread, warp and block, one 64-bit atomicMax
//   step deterministic_sum: fixed tiles summed by warps, then one block sums the tile sums
#include "reduction.cuh"

namespace reduction {

namespace {

constexpr unsigned kFullMask = 0xffffffffu;

// The sum of v over the 32 lanes of the warp, in lane 0. Every lane of the warp must call it.
__device__ float warp_sum(float v) {
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(kFullMask, v, offset);
  return v;
}

// The sum of v over the block (blockDim.x a multiple of 32, at most 1024), in thread 0: shuffles
// in each warp, the warp sums through shared memory, shuffles again in warp 0. The order of the
// additions depends on blockDim.x only. Every thread of the block must call it, and not twice in
// a row without a barrier between (warp_sums is reused).
__device__ float block_sum(float v) {
  __shared__ float warp_sums[WARP_SIZE];
  const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  v = warp_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();  // every warp's sum is in shared memory before warp 0 reads them
  if (warp == 0) {
    const int warps = blockDim.x / WARP_SIZE;
    v = warp_sum(lane < warps ? warp_sums[lane] : 0.0f);
  }
  return v;
}

// The better of two (value, index) candidates: the larger value, the lower index on ties.
// Indices of -1 mark "no candidate" (value -infinity), which loses to every real element.
__device__ void keep_better(float& value, long long& index, float other_value,
                            long long other_index) {
  const bool better = other_index >= 0 && (index < 0 || other_value > value ||
                                           (other_value == value && other_index < index));
  if (better) {
    value = other_value;
    index = other_index;
  }
}

}  // namespace

// A team of `lanes` consecutive threads per row: lane l reads columns l, l + lanes, ..., so the
// warp's loads cover consecutive floats (whole rows of 1-32 floats side by side, or 32 columns of
// one row), then log2(lanes) shuffles of width `lanes` add the team's sums, each team apart from
// the others in the same warp. Every lane of the warp runs the same shuffles (the loop depends
// on `lanes` only), including the teams past the last row, which hold 0.
__global__ void row_sums_narrow(const float* __restrict__ x, float* __restrict__ out,
                                long long rows, int cols, int lanes) {
  const int team = threadIdx.x / lanes, lane = threadIdx.x % lanes;
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / lanes) + team;
  float v = 0.0f;
  if (row < rows) {
    const float* r = x + row * cols;
    for (int c = lane; c < cols; c += lanes) v += r[c];
  }
  for (int offset = lanes / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(kFullMask, v, offset, lanes);
  if (lane == 0 && row < rows) out[row] = v;
}

// One block per part of a row: a coalesced loop over the part, the block's sum, one atomicAdd.
// With few long rows (1 x 2^26, 64 x 2^20) the launcher gives each row enough parts to fill the
// GPU; with many rows each row is one part and the atomicAdd its only write.
__global__ void row_sums_wide(const float* __restrict__ x, float* __restrict__ out, long long rows,
                              long long cols, int parts) {
  const long long row = blockIdx.x / parts;
  const int part = blockIdx.x % parts;
  const long long begin = row_part_begin(cols, parts, part);
  const long long end = row_part_begin(cols, parts, part + 1);
  const float* r = x + row * cols;
  float v = 0.0f;
  for (long long c = begin + threadIdx.x; c < end; c += blockDim.x) v += r[c];
  v = block_sum(v);
  if (threadIdx.x == 0 && row < rows) atomicAdd(&out[row], v);
}

// A grid-stride loop visits a thread's elements in increasing index order, so a strict > keeps
// the first of equal maxima; the warp and the block compare values, then indices; one 64-bit
// atomicMax per block orders values first and, for equal values, the lower index first.
__global__ void arg_max(const float* __restrict__ x, long long n, unsigned long long* key) {
  __shared__ float best_values[BLOCK_THREADS / WARP_SIZE];
  __shared__ long long best_indices[BLOCK_THREADS / WARP_SIZE];
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  float value = -INFINITY;
  long long index = -1;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const float v = x[i];
    if (index < 0 || v > value) {
      value = v;
      index = i;
    }
  }
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    keep_better(value, index, __shfl_down_sync(kFullMask, value, offset),
                __shfl_down_sync(kFullMask, index, offset));
  const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  if (lane == 0) {
    best_values[warp] = value;
    best_indices[warp] = index;
  }
  __syncthreads();  // every warp's best is in shared memory before warp 0 reads them
  if (warp != 0) return;
  const bool mine = lane < BLOCK_THREADS / WARP_SIZE;
  value = mine ? best_values[lane] : -INFINITY;
  index = mine ? best_indices[lane] : -1;
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    keep_better(value, index, __shfl_down_sync(kFullMask, value, offset),
                __shfl_down_sync(kFullMask, index, offset));
  if (lane == 0 && index >= 0) atomicMax(key, arg_max_key(value, index));
}

// Warp w sums tiles w, w + warps, ...: lane l adds elements l, l + 32, ... of the tile in that
// order (coalesced, 32 loads per lane, unrolled), then 5 shuffles. The order of every addition
// depends on the tile alone: the same partials[t] whichever warp, block or grid computes it.
__global__ void tile_sums(const float* __restrict__ x, long long n, float* __restrict__ partials) {
  const long long warps = static_cast<long long>(gridDim.x) * (blockDim.x / WARP_SIZE);
  const long long first =
      (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / WARP_SIZE;
  const int lane = threadIdx.x % WARP_SIZE;
  const long long tiles = sum_tiles(n);
  for (long long t = first; t < tiles; t += warps) {
    const long long base = t * SUM_TILE;
    float v = 0.0f;
    if (base + SUM_TILE <= n) {  // a whole tile: no bounds checks
#pragma unroll 8
      for (int k = lane; k < SUM_TILE; k += WARP_SIZE) v += x[base + k];
    } else {
      for (long long i = base + lane; i < n; i += WARP_SIZE) v += x[i];
    }
    v = warp_sum(v);
    if (lane == 0) partials[t] = v;
  }
}

// One block: thread j adds partials j, j + FINAL_THREADS, ... in that order, then the block's
// fixed tree (shuffles, shared memory, shuffles). The order depends on the number of tiles only.
__global__ void total_of_tiles(const float* __restrict__ /*x*/, long long n,
                               const float* __restrict__ partials, float* __restrict__ out) {
  const long long tiles = sum_tiles(n);
  float v = 0.0f;
  for (long long t = threadIdx.x; t < tiles; t += blockDim.x) v += partials[t];
  v = block_sum(v);
  if (threadIdx.x == 0) *out = v;
}

}  // namespace reduction

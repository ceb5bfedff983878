// Lesson 05_warps: complete the three kernels below, then run `./build/grader 05_warps`.
//
// The launches are in lessons/05_warps/launch.cu and are not yours to change: blocks of 256
// threads (8 warps), the grids written next to each kernel. The header lessons/05_warps/warps.cuh
// documents every kernel; README.md explains the lesson.
//
//   step uniform_branch: the kernel below is right but slow; make its branch warp-uniform
//   step warp_reduce:    sums and maxima of every 32 elements with __shfl_down_sync
//   step array_sum:      the sum of the whole array, one atomicAdd per block
//
// You may add __device__ helper functions (a warp sum, say) to this file.
#include "warps.cuh"

namespace warps {

// Grid: ceil(n / 256) blocks of 256 threads. Right, but thread i takes element i, so the branch
// depends on the lane's parity and every warp runs both chains, half of its lanes idle in each.
__global__ void uniform_branch(const float* __restrict__ x, float* __restrict__ out, int n) {
  // TODO(uniform_branch): keep the output, change the mapping. Block b owns elements
  // b * 256 .. b * 256 + 255; let warps 0-3 take the block's even elements and warps 4-7 its odd
  // ones, so that all 32 lanes of a warp take the same side of the branch. Keep the check i < n.
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (i % 2 == 1) ? odd_work(x[i]) : even_work(x[i]);
}

// Grid: ceil(n / 256) blocks of 256 threads: thread i holds element i, warp g of the grid holds
// group g (elements 32g .. 32g + 31).
__global__ void warp_reduce(const float* __restrict__ x, float* __restrict__ sums,
                            float* __restrict__ maxs, int n) {
  // TODO(warp_reduce): each lane loads its element, or the identity when it is past n (0 for the
  // sum, -INFINITY for the maximum), and stays in the warp. Five steps of
  // __shfl_down_sync(0xffffffff, v, offset), offset 16, 8, 4, 2, 1, leave the warp's result in
  // lane 0. Lane 0 writes sums[g] and maxs[g], but only if its warp holds an element (32g < n).
}

// Grid: SUM_BLOCKS_PER_SM blocks per SM (fewer for small n), 256 threads each; *out is 0 when
// the kernel starts.
__global__ void array_sum(const float* __restrict__ x, float* __restrict__ out, long long n) {
  // TODO(array_sum): a grid-stride loop adds this thread's elements into a register (64-bit
  // index and stride); shuffles give each warp's sum to its lane 0; lane 0 stores it in a
  // __shared__ array of 8 floats; after __syncthreads() warp 0 loads the 8 sums (0 in lanes
  // 8-31), shuffles again, and its lane 0 does atomicAdd(out, block_sum).
}

}  // namespace warps

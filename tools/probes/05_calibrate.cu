// Calibration probe for lesson 05_warps (issue 13). Self-contained: CUDA runtime and CUB only.
//
// Build and run (about 20 s on an H200; `/tmp/p05 div` runs section 1 only):
//   nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/p05 tools/probes/05_calibrate.cu && /tmp/p05
//
// What it measures (every timed sample: L2 flushed by writing a buffer of 2x the L2 size, CUDA
// events around one launch, kernels interleaved A B C A B C ..., one warm-up round, median of 21):
//  1. Divergence (step uniform_branch): out[i] = (i odd ? f(x[i]) : g(x[i])), f a chain of C
//     dependent fused multiply-adds, g of C / 2 unfused multiply-add pairs, C = 64, 128, 256, at
//     n = 2^24 and 2^26, 256 threads a block, one element a thread. Kernels: lane_parity (thread i
//     takes element i: every warp runs both chains), uniform (warps 0-3 of a block take its even
//     elements, warps 4-7 its odd ones), rung (thread i takes element i and the chain is chosen by
//     the warp's half of the block: the same arithmetic and geometry, no divergence; its output is
//     a different function, checked against its own reference). Unit: Gelem/s and % of the rung.
//  2. Whole-array sum (step array_sum), n = 2^26 and 2^28 floats, GB/s = 4 n / time, % of CUB
//     DeviceReduce::Sum (temporary storage allocated once, outside the timing). Hand kernels:
//     grid-stride + shuffles + shared[32] + one atomicAdd per block at k = 1, 2, 4, 8, 16 blocks
//     per SM ("+memset" variants also time the cudaMemsetAsync of *out the launcher does), the
//     same with float4 loads (context), register + shared tree once per block (no shuffles), a
//     shared-memory tree per 256-element tile in a grid-stride loop (the planned wrong kernel),
//     one atomicAdd per thread (no block combination), one atomicAdd per element (5 samples).
//     Input: integer-valued floats in {-1, 0, 1} (sum |x| < 2^24: every order of additions is
//     exact), so every result is compared exactly with the host's sum.
//  3. Run last (undefined behaviour): warp sums/maxes on a partial warp (step warp_reduce): the
//     right kernel, a kernel whose lanes past n return before shuffling with the full mask
//     0xffffffff (undefined behaviour per the PTX ISA), and one whose max reads 0 from lanes past
//     n; n = 1000, 993, 1023, 8, on all-negative and all-positive integer data; prints the last
//     warp's results against the right ones, and what a lane reads from exited lanes with
//     __shfl_down_sync.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cub/cub.cuh>
#include <functional>
#include <string>
#include <vector>

#define CK(call)                                                                            \
  do {                                                                                      \
    cudaError_t e_ = (call);                                                                \
    if (e_ != cudaSuccess) {                                                                \
      std::printf("CUDA error %s at %s:%d: %s\n", cudaGetErrorName(e_), __FILE__, __LINE__, \
                  cudaGetErrorString(e_));                                                  \
      std::exit(1);                                                                         \
    }                                                                                       \
  } while (0)

constexpr unsigned kFull = 0xffffffffu;
constexpr int kThreads = 256;

// ------------------------------------------------------------------------------------------
// 1. Divergence

// odd elements: C dependent fused multiply-adds (FFMA).
template <int C>
__device__ __forceinline__ float f_dev(float v) {
#pragma unroll
  for (int k = 0; k < C; ++k) v = __fmaf_rn(v, 0.998046875f, 0.5f);
  return v;
}
// even elements: C / 2 multiply-then-add pairs, never fused (FMUL, FADD): C instructions. Two FFMA
// chains that differ only in their constants are merged by the compiler into one chain with
// per-thread constants (selp), which removes the branch: the first run of this probe measured
// lane_parity at 99.5% of the rung for that reason.
template <int C>
__device__ __forceinline__ float g_dev(float v) {
#pragma unroll
  for (int k = 0; k < C / 2; ++k) v = __fadd_rn(__fmul_rn(v, -0.9990234375f), 1.0f);
  return v;
}
float f_host(float v, int c) {
  for (int k = 0; k < c; ++k) v = std::fma(v, 0.998046875f, 0.5f);
  return v;
}
// v * a rounded once is fma(v, a, -0) (signed zeros included); w + 1 rounded once is fma(w, 1, 1).
float g_host(float v, int c) {
  for (int k = 0; k < c / 2; ++k) v = std::fma(std::fma(v, -0.9990234375f, -0.0f), 1.0f, 1.0f);
  return v;
}

template <int C>
__global__ void div_lane_parity(const float* __restrict__ x, float* __restrict__ out, int n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (i & 1) ? f_dev<C>(x[i]) : g_dev<C>(x[i]);
}

template <int C>
__global__ void div_uniform(const float* __restrict__ x, float* __restrict__ out, int n) {
  const int half = blockDim.x / 64;  // warps in each half of the block
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int parity = warp >= half ? 1 : 0;
  const int j = (warp - parity * half) * 32 + lane;
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + 2 * j + parity;
  if (i < n) out[i] = (i & 1) ? f_dev<C>(x[i]) : g_dev<C>(x[i]);
}

template <int C>
__global__ void div_rung(const float* __restrict__ x, float* __restrict__ out, int n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const bool second_half = threadIdx.x >= blockDim.x / 2;
  if (i < n) out[i] = second_half ? f_dev<C>(x[i]) : g_dev<C>(x[i]);
}

// ------------------------------------------------------------------------------------------
// 2. Whole-array sum

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(kFull, v, off);
  return v;
}

__device__ __forceinline__ void block_sum_atomic(float acc, float* out) {
  __shared__ float part[32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  acc = warp_sum(acc);
  if (lane == 0) part[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    float v = lane < static_cast<int>(blockDim.x / 32) ? part[lane] : 0.0f;
    v = warp_sum(v);
    if (lane == 0) atomicAdd(out, v);
  }
}

__global__ void sum_shuffle(const float* __restrict__ x, float* out, long long n) {
  float acc = 0.0f;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    acc += x[i];
  block_sum_atomic(acc, out);
}

__global__ void sum_shuffle_float4(const float* __restrict__ x, float* out, long long n) {
  float acc = 0.0f;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long n4 = n / 4;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  for (long long i = t; i < n4; i += stride) {
    const float4 v = x4[i];
    acc += (v.x + v.y) + (v.z + v.w);
  }
  if (t < n - 4 * n4) acc += x[4 * n4 + t];
  block_sum_atomic(acc, out);
}

// Register accumulation, then one shared-memory tree per block (no shuffles).
__global__ void sum_reg_tree(const float* __restrict__ x, float* out, long long n) {
  __shared__ float s[kThreads];
  float acc = 0.0f;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    acc += x[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int h = blockDim.x / 2; h > 0; h /= 2) {
    if (static_cast<int>(threadIdx.x) < h) s[threadIdx.x] += s[threadIdx.x + h];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, s[0]);
}

// A shared-memory tree for every 256-element tile of a grid-stride loop (planned wrong kernel).
__global__ void sum_tile_tree(const float* __restrict__ x, float* out, long long n) {
  __shared__ float s[kThreads];
  float acc = 0.0f;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long base = static_cast<long long>(blockIdx.x) * blockDim.x; base < n; base += stride) {
    const long long i = base + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int h = blockDim.x / 2; h > 0; h /= 2) {
      if (static_cast<int>(threadIdx.x) < h) s[threadIdx.x] += s[threadIdx.x + h];
      __syncthreads();
    }
    if (threadIdx.x == 0) acc += s[0];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, acc);
}

__global__ void sum_atomic_per_thread(const float* __restrict__ x, float* out, long long n) {
  float acc = 0.0f;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    acc += x[i];
  atomicAdd(out, acc);
}

__global__ void sum_atomic_per_element(const float* __restrict__ x, float* out, long long n) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    atomicAdd(out, x[i]);
}

// ------------------------------------------------------------------------------------------
// 3. Partial warps

__global__ void wr_right(const float* __restrict__ x, float* sums, float* maxs, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = i < n ? x[i] : 0.0f;
  float m = i < n ? x[i] : -INFINITY;
  for (int off = 16; off > 0; off /= 2) {
    s += __shfl_down_sync(kFull, s, off);
    m = fmaxf(m, __shfl_down_sync(kFull, m, off));
  }
  if (threadIdx.x % 32 == 0 && i / 32 < (n + 31) / 32) {
    sums[i / 32] = s;
    maxs[i / 32] = m;
  }
}

__global__ void wr_full_mask_partial(const float* __restrict__ x, float* sums, float* maxs, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = x[i], m = x[i];
  for (int off = 16; off > 0; off /= 2) {
    s += __shfl_down_sync(kFull, s, off);
    m = fmaxf(m, __shfl_down_sync(kFull, m, off));
  }
  if (threadIdx.x % 32 == 0) {
    sums[i / 32] = s;
    maxs[i / 32] = m;
  }
}

__global__ void wr_max_reads_zero(const float* __restrict__ x, float* sums, float* maxs, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = i < n ? x[i] : 0.0f;
  float s = v, m = v;
  for (int off = 16; off > 0; off /= 2) {
    s += __shfl_down_sync(kFull, s, off);
    m = fmaxf(m, __shfl_down_sync(kFull, m, off));
  }
  if (threadIdx.x % 32 == 0 && i / 32 < (n + 31) / 32) {
    sums[i / 32] = s;
    maxs[i / 32] = m;
  }
}

// One warp; lanes >= active return; the others record what one shuffle down by `off` gives them.
__global__ void shfl_from_exited(float* got, int active, int off) {
  const int lane = threadIdx.x;
  float v = 100.0f + lane;
  if (lane >= active) return;
  got[lane] = __shfl_down_sync(kFull, v, off);
}

// ------------------------------------------------------------------------------------------
// Timing

struct Timer {
  void* flush = nullptr;
  size_t flush_bytes = 0;
  cudaEvent_t e0, e1;
  int round = 0;
  Timer() {
    int dev = 0, l2 = 0;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    flush_bytes = 2 * static_cast<size_t>(l2);
    CK(cudaMalloc(&flush, flush_bytes));
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
  }
  // Median ms of each launch, interleaved; one warm-up round not counted.
  std::vector<double> time(const std::vector<std::function<void()>>& launches, int samples = 21) {
    std::vector<std::vector<double>> ms(launches.size());
    for (int s = -1; s < samples; ++s)
      for (size_t k = 0; k < launches.size(); ++k) {
        CK(cudaMemsetAsync(flush, (round++) & 0xff, flush_bytes));
        CK(cudaEventRecord(e0));
        launches[k]();
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        CK(cudaGetLastError());
        float t = 0;
        CK(cudaEventElapsedTime(&t, e0, e1));
        if (s >= 0) ms[k].push_back(t);
      }
    std::vector<double> med;
    for (auto& v : ms) {
      std::sort(v.begin(), v.end());
      med.push_back(v[v.size() / 2]);
    }
    return med;
  }
};

unsigned hash32(unsigned v) {
  v ^= v >> 16;
  v *= 0x7feb352du;
  v ^= v >> 15;
  v *= 0x846ca68bu;
  v ^= v >> 16;
  return v;
}

// ------------------------------------------------------------------------------------------

template <int C>
void divergence(Timer& timer, int n) {
  std::vector<float> hx(n);
  for (int i = 0; i < n; ++i) hx[i] = static_cast<float>(hash32(i) % 2001) / 1000.0f - 1.0f;
  float *x, *out;
  CK(cudaMalloc(&x, n * sizeof(float)));
  CK(cudaMalloc(&out, n * sizeof(float)));
  CK(cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  const int blocks = (n + kThreads - 1) / kThreads;
  struct K {
    const char* name;
    std::function<void()> launch;
    bool rung;
  };
  std::vector<K> ks = {
      {"lane_parity", [=] { div_lane_parity<C><<<blocks, kThreads>>>(x, out, n); }, false},
      {"uniform", [=] { div_uniform<C><<<blocks, kThreads>>>(x, out, n); }, false},
      {"rung", [=] { div_rung<C><<<blocks, kThreads>>>(x, out, n); }, true},
  };
  // Check a sample of elements (every 61st and the last 300) against the host.
  std::vector<float> hout(n);
  std::vector<std::string> verdict;
  for (auto& k : ks) {
    CK(cudaMemset(out, 0xFE, n * sizeof(float)));
    k.launch();
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hout.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    auto check = [&](int i) {
      const bool odd = k.rung ? (i % kThreads) >= kThreads / 2 : (i & 1);
      const float want = odd ? f_host(hx[i], C) : g_host(hx[i], C);
      if (std::memcmp(&want, &hout[i], 4) != 0) ++bad;
    };
    for (int i = 0; i < n; i += 61) check(i);
    for (int i = std::max(0, n - 300); i < n; ++i) check(i);
    verdict.push_back(bad ? "WRONG (" + std::to_string(bad) + " sampled elements)" : "ok");
  }
  std::vector<std::function<void()>> l;
  for (auto& k : ks) l.push_back(k.launch);
  const auto ms = timer.time(l);
  const double rung = ms[2];
  for (size_t k = 0; k < ks.size(); ++k)
    std::printf("div C=%-3d n=2^%d  %-12s %8.4f ms %9.1f Gelem/s %6.1f%% of rung  %s\n", C,
                static_cast<int>(std::log2(n)), ks[k].name, ms[k], n / ms[k] / 1e6,
                100.0 * rung / ms[k], verdict[k].c_str());
  CK(cudaFree(x));
  CK(cudaFree(out));
}

void array_sum(Timer& timer, long long n, int sms) {
  std::vector<float> hx(n);
  double exact = 0;
  for (long long i = 0; i < n; ++i) {
    const unsigned h = hash32(static_cast<unsigned>(i) * 2654435761u + 12345u);
    hx[i] = (h % 7 == 0) ? ((h >> 8) & 1 ? 1.0f : -1.0f) : 0.0f;
    exact += hx[i];
  }
  float *x, *out;
  CK(cudaMalloc(&x, n * sizeof(float)));
  CK(cudaMalloc(&out, sizeof(float)));
  CK(cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  size_t temp_bytes = 0;
  CK(cub::DeviceReduce::Sum(nullptr, temp_bytes, x, out, n));
  void* temp = nullptr;
  CK(cudaMalloc(&temp, temp_bytes));

  struct K {
    std::string name;
    std::function<void()> launch;
  };
  std::vector<K> ks;
  ks.push_back({"cub DeviceReduce::Sum", [=] {
                  size_t b = temp_bytes;
                  CK(cub::DeviceReduce::Sum(temp, b, x, out, n));
                }});
  auto with_zero = [=](std::function<void()> f) {
    return [=] {
      CK(cudaMemsetAsync(out, 0, sizeof(float)));
      f();
    };
  };
  for (int k : {1, 2, 4, 8, 16}) {
    const int g = k * sms;
    ks.push_back({"shuffle k=" + std::to_string(k),
                  with_zero([=] { sum_shuffle<<<g, kThreads>>>(x, out, n); })});
  }
  for (int k : {4, 8}) {
    const int g = k * sms;
    // The memset outside the events: the kernel alone.
    ks.push_back({"shuffle k=" + std::to_string(k) + " kernel only",
                  [=] { sum_shuffle<<<g, kThreads>>>(x, out, n); }});
  }
  for (int k : {2, 4, 8}) {
    const int g = k * sms;
    ks.push_back({"float4 shuffle k=" + std::to_string(k),
                  with_zero([=] { sum_shuffle_float4<<<g, kThreads>>>(x, out, n); })});
  }
  for (int k : {4, 8}) {
    const int g = k * sms;
    ks.push_back({"reg+tree k=" + std::to_string(k),
                  with_zero([=] { sum_reg_tree<<<g, kThreads>>>(x, out, n); })});
    ks.push_back({"tile tree k=" + std::to_string(k),
                  with_zero([=] { sum_tile_tree<<<g, kThreads>>>(x, out, n); })});
    ks.push_back({"atomic/thread k=" + std::to_string(k),
                  with_zero([=] { sum_atomic_per_thread<<<g, kThreads>>>(x, out, n); })});
  }
  std::vector<std::string> verdict;
  for (auto& k : ks) {
    CK(cudaMemset(out, 0, sizeof(float)));
    k.launch();
    CK(cudaDeviceSynchronize());
    float got = 0;
    CK(cudaMemcpy(&got, out, sizeof(float), cudaMemcpyDeviceToHost));
    char buf[96];
    std::snprintf(buf, sizeof buf, "%s (got %.1f, want %.1f)",
                  got == static_cast<float>(exact) ? "ok" : "WRONG", got, exact);
    verdict.push_back(buf);
  }
  std::vector<std::function<void()>> l;
  for (auto& k : ks) l.push_back(k.launch);
  const auto ms = timer.time(l);
  const double cub_ms = ms[0];
  for (size_t k = 0; k < ks.size(); ++k)
    std::printf("sum n=%lld  %-30s %8.4f ms %7.0f GB/s %6.1f%% of CUB  %s\n", n, ks[k].name.c_str(),
                ms[k], 4.0 * n / ms[k] / 1e6, 100.0 * cub_ms / ms[k], verdict[k].c_str());
  if (n <= (1LL << 26)) {
    // One atomic per element: few samples, it is slow.
    const int g = 8 * sms;
    auto per_element = with_zero([=] { sum_atomic_per_element<<<g, kThreads>>>(x, out, n); });
    per_element();
    CK(cudaDeviceSynchronize());
    float got = 0;
    CK(cudaMemcpy(&got, out, sizeof(float), cudaMemcpyDeviceToHost));
    const auto m = timer.time({ks[0].launch, per_element}, 5);
    std::printf("sum n=%lld  %-30s %8.4f ms %7.0f GB/s %6.1f%% of CUB  %s (got %.1f)\n", n,
                "atomic/element k=8", m[1], 4.0 * n / m[1] / 1e6, 100.0 * m[0] / m[1],
                got == static_cast<float>(exact) ? "ok" : "WRONG", got);
  }
  CK(cudaFree(temp));
  CK(cudaFree(x));
  CK(cudaFree(out));
}

void partial_warps() {
  const int cap = 1024;
  float *x, *sums, *maxs, *got;
  CK(cudaMalloc(&x, cap * sizeof(float)));
  CK(cudaMalloc(&sums, 32 * sizeof(float)));
  CK(cudaMalloc(&maxs, 32 * sizeof(float)));
  CK(cudaMalloc(&got, 32 * sizeof(float)));
  using Kernel = void (*)(const float*, float*, float*, int);
  const struct {
    const char* name;
    Kernel k;
  } ks[] = {{"right", wr_right},
            {"full_mask_partial_warp", wr_full_mask_partial},
            {"max_reads_zero", wr_max_reads_zero}};
  for (int sign : {-1, 1})
    for (int n : {1000, 993, 1023, 8}) {
      std::vector<float> hx(cap);
      for (int i = 0; i < cap; ++i) hx[i] = sign * static_cast<float>(1 + hash32(i + 7) % 50);
      CK(cudaMemcpy(x, hx.data(), cap * sizeof(float), cudaMemcpyHostToDevice));
      const int warps = (n + 31) / 32, last = warps - 1;
      float want_s = 0, want_m = -INFINITY;
      for (int i = last * 32; i < n; ++i) {
        want_s += hx[i];
        want_m = std::max(want_m, hx[i]);
      }
      for (const auto& k : ks) {
        std::vector<float> hs(32), hm(32);
        CK(cudaMemset(sums, 0xFE, 32 * sizeof(float)));
        CK(cudaMemset(maxs, 0xFE, 32 * sizeof(float)));
        k.k<<<(n + kThreads - 1) / kThreads, kThreads>>>(x, sums, maxs, n);
        const cudaError_t e = cudaDeviceSynchronize();
        CK(cudaMemcpy(hs.data(), sums, 32 * sizeof(float), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hm.data(), maxs, 32 * sizeof(float), cudaMemcpyDeviceToHost));
        int wrong_full = 0;  // full warps whose results differ
        for (int w = 0; w < last; ++w) {
          float s = 0, m = -INFINITY;
          for (int i = w * 32; i < w * 32 + 32; ++i) {
            s += hx[i];
            m = std::max(m, hx[i]);
          }
          if (hs[w] != s || hm[w] != m) ++wrong_full;
        }
        std::printf(
            "partial n=%-4d data %s  %-24s last warp (%d lanes): sum %g (want %g) max %g (want "
            "%g); full warps wrong: %d; error: %s\n",
            n, sign < 0 ? "negative" : "positive", k.name, n - last * 32, hs[last], want_s,
            hm[last], want_m, wrong_full, cudaGetErrorName(e));
      }
    }
  for (int active : {8, 24, 31})
    for (int off : {16, 4, 1}) {
      std::vector<float> h(32, 0);
      CK(cudaMemset(got, 0xFE, 32 * sizeof(float)));
      shfl_from_exited<<<1, 32>>>(got, active, off);
      const cudaError_t e = cudaDeviceSynchronize();
      CK(cudaMemcpy(h.data(), got, 32 * sizeof(float), cudaMemcpyDeviceToHost));
      std::printf("shfl_down(v = 100 + lane, %2d), lanes >= %2d exited (%s):", off, active,
                  cudaGetErrorName(e));
      for (int l = 0; l < active; ++l)
        if (l + off >= active) std::printf(" lane %d got %g;", l, h[l]);
      std::printf("\n");
    }
  CK(cudaFree(x));
  CK(cudaFree(sums));
  CK(cudaFree(maxs));
  CK(cudaFree(got));
}

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  const bool only_divergence = argc > 1 && std::string(argv[1]) == "div";
  int dev = 0, sms = 0, l2 = 0;
  CK(cudaGetDevice(&dev));
  cudaDeviceProp p{};
  CK(cudaGetDeviceProperties(&p, dev));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  std::printf("%s, %d SMs, L2 %d MiB; median of 21, L2 flushed, interleaved\n", p.name, sms,
              l2 >> 20);
  Timer timer;
  std::printf("\n== divergence (step uniform_branch), %% of rung = rung ms / kernel ms ==\n");
  for (int n : {1 << 24, 1 << 26}) {
    divergence<64>(timer, n);
    divergence<128>(timer, n);
    divergence<256>(timer, n);
  }
  if (only_divergence) return 0;
  std::printf("\n== whole-array sum (step array_sum), GB/s = 4 n / time ==\n");
  array_sum(timer, 1LL << 26, sms);
  array_sum(timer, 1LL << 28, sms);
  // Last: the full-mask kernel is undefined behaviour, whatever it does cannot cost the tables.
  std::printf("\n== partial warps (step warp_reduce) ==\n");
  partial_warps();
  return 0;
}

// Calibration probe for lesson 08_bank_conflicts: a kernel bound by shared memory in which only the
// shared-memory access pattern changes.
//
// Every kernel reads two row-major matrices A and B (rows x cols) and, per 32x32 tile position,
// loads the A tile and the B tile into shared memory and computes, for output element (i, j) of
// the tile, C[i][j] = sum_k A[i][k] * B[j][k] over the tile's 32 columns k (C_tile = A_tile *
// B_tile^T). Lane j = threadIdx.x reads B_tile[j][k]: the lanes of a warp walk DOWN a column of the
// B tile, which is the bank-conflict pattern. A[i][k] is one address for the whole warp (a
// broadcast). Edge tiles: elements outside the matrix are zero in shared memory; outputs outside
// the matrix are not written. The "rung" kernels do the same loads, FMAs and geometry with the B
// tile read along a row (C = A_tile * B_tile, for timing only).
// Inputs are small integers (|v| <= 16) so every sum is exact in any order: outputs are compared
// bit for bit with a host reference (the rung against its own A*B reference) before timing.
//
// Variants: float and double; 32x32 threads (one output each) and 32x8 threads (four outputs
// each); B tile padded by 0..4 elements, XOR-swizzled (element (r, c) stored at column c ^ r and
// read with the same swizzle), swizzled on the store only (must print WRONG), the padding put on A
// instead of B; a plain 2-D copy of the same bytes (reads A and B, writes C) for the DRAM floor.
//
// Method: L2 flushed before every sample (a write of 2x the L2 size), one warm-up launch per
// kernel, CUDA events around each launch, kernels interleaved (A B C ... A B C ...), median of 21.
// Prints, per kernel: ms, DRAM GB/s (3 matrices moved: 12 or 24 bytes per element / time, 1e9 B/s),
// % of its rung (same element type and block shape), and the ideal shared-memory wavefronts per
// warp per tile from the bank model (for reading the table).
//
// Build and run (about 20-40 s on an H200, most of it the host reference):
//   nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/p08 tools/probes/08_calibrate.cu && /tmp/p08
// Optional arguments: rows cols (default 8192 8192).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#define CK(x)                                                                                 \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                           \
    }                                                                                         \
  } while (0)

constexpr int TILE = 32;

enum Mode { kPlain = 0, kSwizzleBoth = 1, kSwizzleStoreOnly = 2, kRung = 3 };

// One kernel template for every variant. BR = threads per block in y (32: one output per thread;
// 8: four outputs per thread). PAD_A / PAD_B: elements of padding per shared row.
template <typename T, int BR, int PAD_A, int PAD_B, int MODE>
__global__ void __launch_bounds__(TILE* BR)
    tile_product(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C, int rows,
                 int cols) {
  __shared__ T As[TILE][TILE + PAD_A];
  __shared__ T Bs[TILE][TILE + PAD_B];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
  const int c = col0 + tx;
#pragma unroll
  for (int m = 0; m < TILE / BR; ++m) {
    const int r = ty + m * BR;
    const bool in = row0 + r < rows && c < cols;
    const long long g = static_cast<long long>(row0 + r) * cols + c;
    As[r][tx] = in ? A[g] : T(0);
    const int sc = (MODE == kSwizzleBoth || MODE == kSwizzleStoreOnly) ? (tx ^ r) : tx;
    Bs[r][sc] = in ? B[g] : T(0);
  }
  __syncthreads();
  T acc[TILE / BR];
#pragma unroll
  for (int m = 0; m < TILE / BR; ++m) acc[m] = T(0);
#pragma unroll
  for (int k = 0; k < TILE; ++k) {
    T b;
    if (MODE == kRung)
      b = Bs[k][tx];  // a row: 32 consecutive elements
    else if (MODE == kSwizzleBoth)
      b = Bs[tx][k ^ tx];  // column k of the swizzled tile
    else
      b = Bs[tx][k];  // a column: stride TILE + PAD_B elements
#pragma unroll
    for (int m = 0; m < TILE / BR; ++m) acc[m] += As[ty + m * BR][k] * b;
  }
#pragma unroll
  for (int m = 0; m < TILE / BR; ++m) {
    const int r = row0 + ty + m * BR;
    if (r < rows && c < cols) C[static_cast<long long>(r) * cols + c] = acc[m];
  }
}

// DRAM floor: the same grid, the same bytes (read A and B, write C), no shared memory.
template <typename T, int BR>
__global__ void __launch_bounds__(TILE* BR)
    copy_add(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C, int rows,
             int cols) {
  const int c = blockIdx.x * TILE + threadIdx.x;
#pragma unroll
  for (int m = 0; m < TILE / BR; ++m) {
    const int r = blockIdx.y * TILE + threadIdx.y + m * BR;
    if (r < rows && c < cols) {
      const long long g = static_cast<long long>(r) * cols + c;
      C[g] = A[g] + B[g];
    }
  }
}

__global__ void fill(float* f, double* d, long long n, unsigned seed) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    unsigned h = static_cast<unsigned>(i) * 2654435761u ^ seed;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    const int v = static_cast<int>(h % 33u) - 16;  // -16..16
    f[i] = static_cast<float>(v);
    d[i] = static_cast<double>(v);
  }
}

enum Ref { kRefABt, kRefAB, kRefSum, kRefNone };

struct Variant {
  std::string name;
  bool is_double;
  int br;
  Ref ref;
  std::string rung;   // name of the rung it is compared with
  const char* ideal;  // bank-model wavefronts per B load instruction (per warp)
  void (*launch)(const void*, const void*, void*, int, int);
};

template <typename T, int BR, int PA, int PB, int MODE>
void launch_tp(const void* a, const void* b, void* c, int rows, int cols) {
  dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), block(TILE, BR);
  tile_product<T, BR, PA, PB, MODE><<<grid, block>>>(
      static_cast<const T*>(a), static_cast<const T*>(b), static_cast<T*>(c), rows, cols);
}
template <typename T, int BR>
void launch_copy(const void* a, const void* b, void* c, int rows, int cols) {
  dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), block(TILE, BR);
  copy_add<T, BR><<<grid, block>>>(static_cast<const T*>(a), static_cast<const T*>(b),
                                   static_cast<T*>(c), rows, cols);
}

std::vector<Variant> variants() {
  using F = float;
  using D = double;
  return {
      // float, 32x32 threads
      {"f32 32x32 rung (row read)", false, 32, kRefAB, "", "1", launch_tp<F, 32, 0, 0, kRung>},
      {"f32 32x32 conflicted [32][32]", false, 32, kRefABt, "f32 32x32 rung (row read)", "32",
       launch_tp<F, 32, 0, 0, kPlain>},
      {"f32 32x32 padded B [32][33]", false, 32, kRefABt, "f32 32x32 rung (row read)", "1",
       launch_tp<F, 32, 0, 1, kPlain>},
      {"f32 32x32 padded B [32][34]", false, 32, kRefABt, "f32 32x32 rung (row read)", "2",
       launch_tp<F, 32, 0, 2, kPlain>},
      {"f32 32x32 swizzled c^r", false, 32, kRefABt, "f32 32x32 rung (row read)", "1",
       launch_tp<F, 32, 0, 0, kSwizzleBoth>},
      {"f32 32x32 pads A not B", false, 32, kRefABt, "f32 32x32 rung (row read)", "32",
       launch_tp<F, 32, 1, 0, kPlain>},
      {"f32 32x32 swizzle store only", false, 32, kRefABt, "f32 32x32 rung (row read)", "1*",
       launch_tp<F, 32, 0, 0, kSwizzleStoreOnly>},
      {"f32 32x32 copy A+B (DRAM floor)", false, 32, kRefSum, "f32 32x32 rung (row read)", "-",
       launch_copy<F, 32>},
      // float, 32x8 threads
      {"f32 32x8 rung (row read)", false, 8, kRefAB, "", "1", launch_tp<F, 8, 0, 0, kRung>},
      {"f32 32x8 conflicted [32][32]", false, 8, kRefABt, "f32 32x8 rung (row read)", "32",
       launch_tp<F, 8, 0, 0, kPlain>},
      {"f32 32x8 padded B [32][33]", false, 8, kRefABt, "f32 32x8 rung (row read)", "1",
       launch_tp<F, 8, 0, 1, kPlain>},
      {"f32 32x8 swizzled c^r", false, 8, kRefABt, "f32 32x8 rung (row read)", "1",
       launch_tp<F, 8, 0, 0, kSwizzleBoth>},
      {"f32 32x8 copy A+B (DRAM floor)", false, 8, kRefSum, "f32 32x8 rung (row read)", "-",
       launch_copy<F, 8>},
      // double, 32x32 threads
      {"f64 32x32 rung (row read)", true, 32, kRefAB, "", "2", launch_tp<D, 32, 0, 0, kRung>},
      {"f64 32x32 conflicted [32][32]", true, 32, kRefABt, "f64 32x32 rung (row read)", "32",
       launch_tp<D, 32, 0, 0, kPlain>},
      {"f64 32x32 padded B [32][33]", true, 32, kRefABt, "f64 32x32 rung (row read)", "2",
       launch_tp<D, 32, 0, 1, kPlain>},
      {"f64 32x32 padded B [32][34]", true, 32, kRefABt, "f64 32x32 rung (row read)", "4",
       launch_tp<D, 32, 0, 2, kPlain>},
      {"f64 32x32 padded B [32][35]", true, 32, kRefABt, "f64 32x32 rung (row read)", "2",
       launch_tp<D, 32, 0, 3, kPlain>},
      {"f64 32x32 padded B [32][36]", true, 32, kRefABt, "f64 32x32 rung (row read)", "8",
       launch_tp<D, 32, 0, 4, kPlain>},
      {"f64 32x32 swizzled c^r", true, 32, kRefABt, "f64 32x32 rung (row read)", "2",
       launch_tp<D, 32, 0, 0, kSwizzleBoth>},
      {"f64 32x32 pads A not B", true, 32, kRefABt, "f64 32x32 rung (row read)", "32",
       launch_tp<D, 32, 1, 0, kPlain>},
      {"f64 32x32 copy A+B (DRAM floor)", true, 32, kRefSum, "f64 32x32 rung (row read)", "-",
       launch_copy<D, 32>},
      // double, 32x8 threads
      {"f64 32x8 rung (row read)", true, 8, kRefAB, "", "2", launch_tp<D, 8, 0, 0, kRung>},
      {"f64 32x8 conflicted [32][32]", true, 8, kRefABt, "f64 32x8 rung (row read)", "32",
       launch_tp<D, 8, 0, 0, kPlain>},
      {"f64 32x8 padded B [32][33]", true, 8, kRefABt, "f64 32x8 rung (row read)", "2",
       launch_tp<D, 8, 0, 1, kPlain>},
      {"f64 32x8 padded B [32][34]", true, 8, kRefABt, "f64 32x8 rung (row read)", "4",
       launch_tp<D, 8, 0, 2, kPlain>},
      {"f64 32x8 copy A+B (DRAM floor)", true, 8, kRefSum, "f64 32x8 rung (row read)", "-",
       launch_copy<D, 8>},
  };
}

// Host references (as float: every value is an integer of magnitude <= 32 * 256, exact).
void host_refs(const std::vector<float>& a, const std::vector<float>& b, int rows, int cols,
               std::vector<float>& abt, std::vector<float>& ab) {
  abt.assign(static_cast<size_t>(rows) * cols, 0.f);
  ab.assign(static_cast<size_t>(rows) * cols, 0.f);
  const int tiles_y = (rows + TILE - 1) / TILE, tiles_x = (cols + TILE - 1) / TILE;
  auto at = [&](const std::vector<float>& m, int r, int c) -> float {
    return (r < rows && c < cols) ? m[static_cast<size_t>(r) * cols + c] : 0.f;
  };
  auto work = [&](int t0, int t1) {
    for (int ty = t0; ty < t1; ++ty)
      for (int tx = 0; tx < tiles_x; ++tx) {
        const int r0 = ty * TILE, c0 = tx * TILE;
        float at_[TILE][TILE], bt_[TILE][TILE];
        for (int i = 0; i < TILE; ++i)
          for (int k = 0; k < TILE; ++k) {
            at_[i][k] = at(a, r0 + i, c0 + k);
            bt_[i][k] = at(b, r0 + i, c0 + k);
          }
        for (int i = 0; i < TILE && r0 + i < rows; ++i)
          for (int j = 0; j < TILE && c0 + j < cols; ++j) {
            float s1 = 0.f, s2 = 0.f;
            for (int k = 0; k < TILE; ++k) {
              s1 += at_[i][k] * bt_[j][k];
              s2 += at_[i][k] * bt_[k][j];
            }
            abt[static_cast<size_t>(r0 + i) * cols + c0 + j] = s1;
            ab[static_cast<size_t>(r0 + i) * cols + c0 + j] = s2;
          }
      }
  };
  const int nt = std::max(1u, std::min(32u, std::thread::hardware_concurrency()));
  std::vector<std::thread> th;
  for (int t = 0; t < nt; ++t) th.emplace_back(work, tiles_y * t / nt, tiles_y * (t + 1) / nt);
  for (auto& t : th) t.join();
}

struct Buffers {
  float *fa, *fb, *fc;
  double *da, *db, *dc;
};

// Checks every variant on rows x cols; returns false if any is wrong (those print WRONG).
bool check_all(const std::vector<Variant>& vs, const Buffers& bf, int rows, int cols,
               std::vector<bool>& wrong) {
  const size_t n = static_cast<size_t>(rows) * cols;
  std::vector<float> a(n), b(n), abt, ab;
  CK(cudaMemcpy(a.data(), bf.fa, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(b.data(), bf.fb, n * 4, cudaMemcpyDeviceToHost));
  host_refs(a, b, rows, cols, abt, ab);
  std::vector<float> gf(n);
  std::vector<double> gd(n);
  bool all = true;
  for (size_t v = 0; v < vs.size(); ++v) {
    const Variant& x = vs[v];
    if (x.is_double) {
      CK(cudaMemset(bf.dc, 0xFE, n * 8));
      x.launch(bf.da, bf.db, bf.dc, rows, cols);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(gd.data(), bf.dc, n * 8, cudaMemcpyDeviceToHost));
    } else {
      CK(cudaMemset(bf.fc, 0xFE, n * 4));
      x.launch(bf.fa, bf.fb, bf.fc, rows, cols);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(gf.data(), bf.fc, n * 4, cudaMemcpyDeviceToHost));
    }
    size_t bad = 0, first = n;
    for (size_t i = 0; i < n; ++i) {
      const double expect = x.ref == kRefABt ? abt[i] : x.ref == kRefAB ? ab[i] : a[i] + b[i];
      const double got = x.is_double ? gd[i] : static_cast<double>(gf[i]);
      if (!(got == expect)) {
        if (!bad) first = i;
        ++bad;
      }
    }
    if (bad) {
      wrong[v] = true;
      all = false;
      std::printf("  %dx%d  %-34s WRONG: %zu of %zu elements differ (first at row %zu col %zu)\n",
                  rows, cols, x.name.c_str(), bad, n, first / cols, first % cols);
    }
  }
  return all;
}

int main(int argc, char** argv) {
  const int rows = argc > 2 ? std::atoi(argv[1]) : 8192;
  const int cols = argc > 2 ? std::atoi(argv[2]) : 8192;
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  int clock_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  std::printf("08_calibrate: %s, %d SMs, L2 %d MB, SM clock %d MHz; timing %d x %d\n", prop.name,
              prop.multiProcessorCount, prop.l2CacheSize >> 20, clock_khz / 1000, rows, cols);

  const std::vector<Variant> vs = variants();
  std::vector<bool> wrong(vs.size(), false);

  // 1. Correctness on small odd shapes (edge tiles both ways), then on the timing shape.
  const int small[][2] = {{1, 1}, {33, 65}, {1000, 777}, {31, 1}, {1, 97}};
  Buffers bf{};
  const size_t n = static_cast<size_t>(rows) * cols;
  CK(cudaMalloc(&bf.fa, n * 4));
  CK(cudaMalloc(&bf.fb, n * 4));
  CK(cudaMalloc(&bf.fc, n * 4));
  CK(cudaMalloc(&bf.da, n * 8));
  CK(cudaMalloc(&bf.db, n * 8));
  CK(cudaMalloc(&bf.dc, n * 8));
  std::printf("checking on the host (bit-exact; the rung against A*B, the copy against A+B)...\n");
  for (auto& s : small) {
    const size_t m = static_cast<size_t>(s[0]) * s[1];
    fill<<<256, 256>>>(bf.fa, bf.da, m, 12345u);
    fill<<<256, 256>>>(bf.fb, bf.db, m, 777u);
    CK(cudaDeviceSynchronize());
    check_all(vs, bf, s[0], s[1], wrong);
  }
  fill<<<1024, 256>>>(bf.fa, bf.da, n, 12345u);
  fill<<<1024, 256>>>(bf.fb, bf.db, n, 777u);
  CK(cudaDeviceSynchronize());
  check_all(vs, bf, rows, cols, wrong);
  std::printf(
      "(the 'swizzle store only' variant is expected to be WRONG; every other one right)\n");

  // 2. Timing.
  const size_t flush_bytes = 2ull * prop.l2CacheSize;
  void* flush;
  CK(cudaMalloc(&flush, flush_bytes));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  auto run = [&](const Variant& x) {
    if (x.is_double)
      x.launch(bf.da, bf.db, bf.dc, rows, cols);
    else
      x.launch(bf.fa, bf.fb, bf.fc, rows, cols);
  };
  for (const auto& x : vs) run(x);  // warm-up
  CK(cudaDeviceSynchronize());
  const int samples = 21;
  std::vector<std::vector<float>> t(vs.size());
  for (int s = 0; s < samples; ++s)
    for (size_t v = 0; v < vs.size(); ++v) {
      CK(cudaMemsetAsync(flush, s & 0xFF, flush_bytes));
      CK(cudaEventRecord(e0));
      run(vs[v]);
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      CK(cudaGetLastError());
      float ms = 0;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      t[v].push_back(ms);
    }
  std::vector<double> med(vs.size());
  for (size_t v = 0; v < vs.size(); ++v) {
    std::sort(t[v].begin(), t[v].end());
    med[v] = t[v][samples / 2];
  }
  auto index_of = [&](const std::string& name) -> int {
    for (size_t v = 0; v < vs.size(); ++v)
      if (vs[v].name == name) return static_cast<int>(v);
    return -1;
  };

  std::printf(
      "\nmedian of %d, L2 flushed before each sample, kernels interleaved\n"
      "DRAM GB/s = 3 matrices x rows x cols x sizeof(T) / time / 1e9; %% of rung = rung time / "
      "time\nB-load wavefronts = bank-model wavefronts per warp per B-tile load (the rung reads "
      "a row); spread = (p90 - p10) / median\n\n",
      samples);
  std::printf("%-36s %10s %10s %10s %8s %8s %s\n", "kernel", "ms", "DRAM GB/s", "% of rung",
              "B-load", "spread", "");
  for (size_t v = 0; v < vs.size(); ++v) {
    const Variant& x = vs[v];
    const double bytes = 3.0 * static_cast<double>(n) * (x.is_double ? 8 : 4);
    const int r = x.rung.empty() ? static_cast<int>(v) : index_of(x.rung);
    const double pct = 100.0 * med[r] / med[v];
    const double spread = (t[v][samples * 9 / 10] - t[v][samples / 10]) / med[v] * 100.0;
    std::printf("%-36s %10.4f %10.1f %9.1f%% %8s %7.1f%% %s\n", x.name.c_str(), med[v],
                bytes / (med[v] * 1e-3) / 1e9, pct, x.ideal, spread, wrong[v] ? "WRONG" : "");
  }
  std::printf(
      "\n(* the store-only swizzle reads without conflicts but reads the wrong elements)\n");
  return 0;
}

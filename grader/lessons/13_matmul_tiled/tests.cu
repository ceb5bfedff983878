// Hidden tests of lesson 13_matmul_tiled: "<step>/Correct.M<m>_N<n>_K<k>" and "<step>/Speed.timed"
// for the steps naive, shared_tiles, register_tiles and warp_tiles, every one timed against
// cublasSgemm (CUBLAS_DEFAULT_MATH: FP32, TF32 off) on the same matrices.
//
// Comparisons. A and B are drawn by MatrixValues (host_reference.hpp). An element of C passes
// when |got - exact| <= tolerance_factor(K) x sum_k |A[r][k]| |B[k][c]| (tolerance.hpp: the
// worst-case bound of an FP32 sum of K products for K < 16, the probabilistic one, 4 sqrt(K) u,
// above): every order of FP32 multiply-adds passes, inputs rounded to TF32 or half do not.
//
// References. Correctness cases compute the exact product and the magnitudes in double on the
// host (tolerance.hpp). The speed test's checks (its first launch and three timed launches
// afterwards) compare on the device: A and B drawn afresh from their seeds into buffers of the
// test's own, their product by cublasSgemm in CUBLAS_PEDANTIC_MATH, and the magnitudes as the
// product of |A| and |B| the same way. cuBLAS's product is itself within the tolerance of the
// exact one, so the device comparison allows twice the tolerance (the student's error plus
// cuBLAS's), and the magnitudes, a sum of positive terms, are taken 2^-10 larger than computed.
// Every correctness case checks that device reference against the host one on every element
// (cuBLAS within the tolerance, its magnitudes within 2^-10), so it is trusted as far as the host
// reference vouches for it.
//
// Shapes: 1x1x1; odd sizes (17, 31, 33, 1000, 4097) that are no multiple of any tile; K = 1;
// one row and one column of C; tall and skinny; K = 4097 over many slices; multiples of 4 in K
// and N (the float4 paths of warp_tiles) with partial tiles, and exact multiples of every tile.
// The timing shape is 4096 x 4096 x 4096, where our anchors were measured
// (lessons/13_matmul_tiled/calibration.md): a product is compute-bound, so its working set (192
// MiB, 3.2x an H200's L2) matters less than for a copy; the L2 is still flushed before every
// sample.
#include <cmath>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "course/report.hpp"
#include "harness/lesson.hpp"
#include "host_reference.hpp"
#include "matmul.cuh"
#include "matmul_steps.hpp"
#include "steps/13_matmul_tiled.hpp"

namespace {

using matmul_tiled::Step;

struct Shape {
  int M, N, K;
};

std::string shape_name(const Shape& s) {
  return fmt::format("M{}_N{}_K{}", s.M, s.N, s.K);
}

const std::vector<Shape> kShapes = {
    {1, 1, 1},        {17, 17, 17},     {31, 33, 1},     {1, 4097, 33}, {4097, 1, 33},
    {1000, 1000, 17}, {100, 129, 1000}, {4097, 8, 130},  {8, 8, 4097},  {65, 131, 4097},
    {128, 128, 128},  {257, 260, 256},  {300, 300, 300}, {64, 4096, 4}, {129, 127, 64}};

Shape timing_shape() {
  return {4096, 4096, 4096};
}

// The timed ceiling and the device reference: cublasSgemm in the two FP32 modes.
cudaError_t cublas_default(const float* A, const float* B, float* C, int M, int N, int K,
                           cudaStream_t stream) {
  return matmul_tiled::launch_cublas_sgemm(A, B, C, M, N, K, stream,
                                           matmul_tiled::CublasMath::fp32_default);
}

void check_cublas(cudaError_t err, const std::string& what) {
  if (err != cudaSuccess && *matmul_tiled::cublas_error_text() != '\0')
    throw harness::CudaError(what + ": " + matmul_tiled::cublas_error_text(), err, false);
  harness::check(err, what);
}

// Step shared_tiles is graded on the tiles, not on its time (reported): the naive kernel runs
// within a few points of it (README section 3). The tiles show in the kernel's static shared
// memory.
void expect_shared_tiles(harness::Case& c, Step step) {
  if (step != Step::shared_tiles) return;
  cudaFuncAttributes attr{};
  harness::check(
      cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(matmul_tiled::sgemm_shared_tiles)),
      "cudaFuncGetAttributes");
  const std::size_t tiles = 2 * matmul_tiled::TILE * matmul_tiled::TILE * sizeof(float);
  if (attr.sharedSizeBytes < tiles)
    c.fail(fmt::format(
        "sgemm_shared_tiles uses no shared-memory tile: it declares {} bytes of shared memory, "
        "less than two {} x {} float tiles ({} bytes). This step stages a tile of A and a tile of "
        "B in shared memory and computes from there (README section 3)",
        attr.sharedSizeBytes, matmul_tiled::TILE, matmul_tiled::TILE, tiles));
}

// The device reference: element i of cuBLAS's product and of the magnitudes, both computed by
// DeviceProduct, as a harness::Near with twice the tolerance (see the file's comment).
struct ProductNear {
  const float* product;
  const float* magnitude;
  double factor;  // 2 x tolerance_factor(K) x (1 + 2^-10)
  __device__ harness::Near operator()(std::size_t i) const {
    return {static_cast<double>(product[i]), factor * static_cast<double>(magnitude[i])};
  }
};

// cuBLAS's product of A and B and of |A| and |B|, computed from the inputs' draws (their seeds)
// into buffers of this object's own, never from the buffers the kernel under test can reach.
class DeviceProduct {
 public:
  DeviceProduct(const harness::Input<float>& A, const harness::Input<float>& B, const Shape& s)
      : s_(s),
        a_(static_cast<std::size_t>(s.M) * s.K),
        b_(static_cast<std::size_t>(s.K) * s.N),
        product_(static_cast<std::size_t>(s.M) * s.N),
        magnitude_(static_cast<std::size_t>(s.M) * s.N) {
    using matmul_tiled::CublasMath;
    multiply(A.seed(), B.seed(), matmul_tiled::MatrixValues{}, product_.data());
    multiply(A.seed(), B.seed(), matmul_tiled::AbsMatrixValues{}, magnitude_.data());
  }

  ProductNear near() const {
    return {product_.data(), magnitude_.data(),
            2.0 * matmul_tiled::tolerance_factor(s_.K) * (1.0 + 1.0 / 1024.0)};
  }

  // Throws std::logic_error unless cuBLAS's product is within the tolerance of the host's exact
  // one and its magnitudes within 2^-10 of the host's, on every element.
  void vouch(const matmul_tiled::HostProduct& host, const std::vector<double>& tolerance,
             const harness::Case& c) const {
    const std::vector<float> p = product_.download(), m = magnitude_.download();
    for (std::size_t i = 0; i < p.size(); ++i) {
      const bool product_ok = std::fabs(p[i] - host.exact[i]) <= tolerance[i];
      const bool magnitude_ok = std::fabs(m[i] - host.magnitude[i]) <= host.magnitude[i] / 1024.0;
      if (!product_ok || !magnitude_ok)
        throw std::logic_error(fmt::format(
            "hidden test 13_matmul_tiled.{} ({}): the device reference (cublasSgemm, "
            "CUBLAS_PEDANTIC_MATH) disagrees with the host reference at C[{}][{}]: {} against "
            "{} (tolerance {}), magnitudes {} against {} (a mistake in the hidden test or in "
            "cuBLAS, not in your kernel)",
            c.step(), c.prefix(), i / s_.N, i % s_.N, harness::show(p[i]),
            harness::show(host.exact[i]), harness::show(tolerance[i]), harness::show(m[i]),
            harness::show(host.magnitude[i])));
    }
  }

  // The exact value and the magnitudes at element i, read back (for a failure's advice).
  std::pair<double, double> at(std::size_t i) const {
    float p = 0, m = 0;
    harness::check(cudaMemcpy(&p, product_.data() + i, sizeof p, cudaMemcpyDeviceToHost),
                   "read the device reference");
    harness::check(cudaMemcpy(&m, magnitude_.data() + i, sizeof m, cudaMemcpyDeviceToHost),
                   "read the device reference");
    return {p, m};
  }

 private:
  template <typename Draw>
  void multiply(std::uint64_t seed_a, std::uint64_t seed_b, Draw draw, float* out) {
    harness::check(harness::fill_on_device(a_.data(), a_.size(), seed_a, draw, 0),
                   "draw A again for the device reference");
    harness::check(harness::fill_on_device(b_.data(), b_.size(), seed_b, draw, 0),
                   "draw B again for the device reference");
    check_cublas(matmul_tiled::launch_cublas_sgemm(a_.data(), b_.data(), out, s_.M, s_.N, s_.K, 0,
                                                   matmul_tiled::CublasMath::fp32_pedantic),
                 "cublasSgemm for the device reference");
    harness::wait(0, "the device reference");
  }

  Shape s_;
  harness::DeviceBuffer<float> a_, b_, product_, magnitude_;
};

// What a wrong element is: not a number (a load past the end of A or B), an error of the size
// that inputs rounded to 10 mantissa bits give, or something else (terms missing or added).
// `at(i)` gives the exact value and the magnitudes of element i.
harness::Advice product_advice(int K, std::function<std::pair<double, double>(std::size_t)> at) {
  return [K, at](const harness::Mismatches& m) -> std::string {
    if (m.first_unwritten)
      return "Every element of C needs a thread: the grid is blocks_for(N, ...) x blocks_for(M, "
             "...) blocks (blocks_for rounds up), and a thread writes its element only when r < M "
             "and c < N";
    const double got = std::strtod(m.got.c_str(), nullptr);
    if (!std::isfinite(got))
      return "A non-finite value: the data are finite and small, so a load read outside A or B "
             "(the words after each input hold NaN). Load 0 past the edges: r < M and k < K for "
             "A, k < K and c < N for B";
    const auto [exact, magnitude] = at(m.first);
    const double bound = matmul_tiled::tolerance_factor(K);
    const double relative = magnitude > 0 ? std::fabs(got - exact) / magnitude : INFINITY;
    if (relative > bound && relative <= 1.0 / 256)
      return fmt::format(
          "The error is {:.1e} of the sum of the terms' magnitudes, {:.0f} times what FP32 "
          "arithmetic in any order allows here ({:.1e}, README section 6): the size that inputs "
          "rounded to 10 mantissa bits give (TF32 tensor cores, half precision: up to 2^-11 per "
          "input). Multiply and add in FP32",
          relative, relative / bound, bound);
    return fmt::format(
        "C[r][c] is the sum over k = 0 .. {} of A[r][k] * B[k][c]: an error this large ({:.1e} of "
        "the terms' magnitudes) means terms missing or counted twice (the last, partial tile of "
        "K, a tile loaded before the barrier, a row or column of the wrong tile)",
        K - 1, relative);
  };
}

void product_case(harness::Case& c, Step step, const Shape& s) {
  expect_shared_tiles(c, step);
  c.describe(fmt::format("sgemm_{}", matmul_tiled::step_name(step)),
             fmt::format("M = {}, N = {}, K = {} (C = A B: {} x {} times {} x {})", s.M, s.N, s.K,
                         s.M, s.K, s.K, s.N));
  const auto A =
      c.input<float>("A", static_cast<std::size_t>(s.M) * s.K, matmul_tiled::MatrixValues{});
  const auto B =
      c.input<float>("B", static_cast<std::size_t>(s.K) * s.N, matmul_tiled::MatrixValues{});
  const auto C = c.output<float>("C", static_cast<std::size_t>(s.M) * s.N);
  c.launch(matmul_tiled::step_launcher(step), A, B, C, s.M, s.N, s.K);
  c.ceiling(cublas_default, A, B, C, s.M, s.N, s.K);
  c.bytes(4.0 * (static_cast<double>(s.M) * s.K + static_cast<double>(s.K) * s.N +
                 static_cast<double>(s.M) * s.N));
  c.flops(2.0 * s.M * static_cast<double>(s.N) * s.K);
  const DeviceProduct device(A, B, s);
  if (c.timing()) {
    const auto unused_host = []() -> std::pair<std::vector<double>, std::vector<double>> {
      throw std::logic_error("the timing shape is compared on the device");
    };
    c.expect_near(C, harness::reference(unused_host, device.near()), harness::row_major(s.N),
                  product_advice(s.K, [&device](std::size_t i) { return device.at(i); }));
    return;
  }
  // Rows on every core: the product is O(M N K) host work, the rest of a case O(M N + K (M + N)).
  const matmul_tiled::HostProduct host = matmul_tiled::host_product(
      A.host(), B.host(), s.M, s.N, s.K, [&s](std::size_t rows, const auto& body) {
        harness::parallel_for(rows, body, static_cast<std::size_t>(s.N) * s.K);
      });
  const std::vector<double> tolerance = host.tolerance(s.K);
  device.vouch(host, tolerance, c);
  c.expect_near(C, host.exact, tolerance, harness::row_major(s.N),
                product_advice(s.K, [&host](std::size_t i) {
                  return std::make_pair(host.exact[i], host.magnitude[i]);
                }));
}

template <Step kStep>
void step_case(harness::Case& c, const Shape& s) {
  product_case(c, kStep, s);
}

template <Step kStep>
void register_step() {
  harness::correctness(kStep, kShapes, shape_name, step_case<kStep>);
  harness::speed(kStep, timing_shape, step_case<kStep>);
}

}  // namespace

COURSE_TESTS {
  register_step<Step::naive>();
  register_step<Step::shared_tiles>();
  register_step<Step::register_tiles>();
  register_step<Step::warp_tiles>();
}

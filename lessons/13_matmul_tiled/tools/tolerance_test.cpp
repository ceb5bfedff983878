// The tolerance of lesson 13_matmul_tiled (tolerance.hpp), tested on the host: FP32 sums of K
// products in three orders stay inside it, and products of inputs rounded to TF32 (10 mantissa
// bits) fall outside it on most elements. The data follow the mix of the lesson's MatrixValues
// (host_reference.hpp): 1/32 zeros, 1/32 minus ones, 1/16 uniform in [-32, 32), the rest uniform
// in [-0.75, 1.25).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <thread>
#include <vector>

#include "../tolerance.hpp"

namespace {

float draw(std::mt19937_64& rng) {
  const unsigned kind = static_cast<unsigned>(rng() & 63);
  const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  if (kind < 2) return 0.0f;
  if (kind < 4) return -1.0f;
  if (kind < 8) return static_cast<float>((u - 0.5) * 64.0);
  return static_cast<float>(u * 2.0 - 0.75);
}

struct Worst {
  double fp32 = 0;          // largest |error| / tolerance over the FP32 orders
  double tf32_outside = 0;  // share of elements whose TF32 product is outside the tolerance
};

// `elements` dot products of K terms: the exact sum in double, FP32 in three orders, and the FP32
// sum of TF32-rounded inputs.
Worst measure(int K, int elements, unsigned seed) {
  std::mt19937_64 rng(seed);
  Worst w;
  int outside = 0, counted = 0;
  std::vector<float> a(K), b(K);
  for (int e = 0; e < elements; ++e) {
    for (int k = 0; k < K; ++k) {
      a[k] = draw(rng);
      b[k] = draw(rng);
    }
    double exact = 0, magnitude = 0;
    for (int k = 0; k < K; ++k) {
      exact += static_cast<double>(a[k]) * b[k];
      magnitude += std::fabs(static_cast<double>(a[k]) * b[k]);
    }
    if (magnitude == 0) continue;
    const double tolerance = matmul_tiled::tolerance_factor(K) * magnitude;
    float chain_fma = 0, chain = 0, parts[8] = {}, tf32 = 0;
    for (int k = 0; k < K; ++k) {
      chain_fma = std::fma(a[k], b[k], chain_fma);
      const float product = a[k] * b[k];
      chain = chain + product;
      parts[k % 8] = std::fma(a[k], b[k], parts[k % 8]);
      tf32 = std::fma(matmul_tiled::round_to_tf32(a[k]), matmul_tiled::round_to_tf32(b[k]), tf32);
    }
    float interleaved = 0;
    for (float p : parts) interleaved += p;
    for (float got : {chain_fma, chain, interleaved})
      w.fp32 = std::max(w.fp32, std::fabs(got - exact) / tolerance);
    outside += std::fabs(tf32 - exact) > tolerance;
    ++counted;
  }
  w.tf32_outside = counted ? static_cast<double>(outside) / counted : 0;
  return w;
}

TEST(MatmulTolerance, Fp32InAnyOrderStaysInside) {
  for (int K : {1, 2, 3, 7, 15}) {  // the worst-case bound: never exceeded
    const Worst w = measure(K, 2000, 11u + K);
    EXPECT_LE(w.fp32, 1.0) << "K = " << K;
  }
  for (int K : {16, 17, 64, 130, 1000, 4096, 4097, 16384}) {  // the probabilistic one
    const Worst w = measure(K, K > 4000 ? 300 : 2000, 101u + K);
    EXPECT_LT(w.fp32, 1.0 / 3) << "K = " << K;
  }
}

TEST(MatmulTolerance, Tf32InputsFallOutsideOnMostElements) {
  for (int K : {1, 2, 17, 33, 130, 1000, 4096, 4097}) {
    const Worst w = measure(K, K > 4000 ? 300 : 2000, 7u + K);
    EXPECT_GT(w.tf32_outside, 0.5) << "K = " << K;
  }
}

TEST(MatmulTolerance, FactorIsTheSmallerBound) {
  const double u = matmul_tiled::kUnitRoundoff;
  EXPECT_DOUBLE_EQ(matmul_tiled::tolerance_factor(1), u / (1 - u));
  EXPECT_DOUBLE_EQ(matmul_tiled::tolerance_factor(4096), 4.0 * 64.0 * u);
  EXPECT_LT(matmul_tiled::tolerance_factor(15), 4.0 * std::sqrt(15.0) * u);
  EXPECT_EQ(matmul_tiled::round_to_tf32(1.0f + 0x1.0p-11f), 1.0f + 0x1.0p-10f);  // a tie: away
  EXPECT_EQ(matmul_tiled::round_to_tf32(1.0f + 0x1.0p-12f), 1.0f);
}

// The host reference split over rows, on threads and out of order (as the hidden tests run it
// with harness::parallel_for), gives the same bits as on one thread, and the exact values.
TEST(MatmulHostProduct, RowsOnThreadsGiveTheSameBits) {
  const int M = 37, N = 29, K = 53;
  std::mt19937_64 rng(7);
  std::vector<float> A(static_cast<std::size_t>(M) * K), B(static_cast<std::size_t>(K) * N);
  for (float& v : A) v = draw(rng);
  for (float& v : B) v = draw(rng);
  const matmul_tiled::HostProduct one = matmul_tiled::host_product(
      A, B, M, N, K, [](std::size_t rows, const auto& body) { body(std::size_t{0}, rows); });
  const matmul_tiled::HostProduct split =
      matmul_tiled::host_product(A, B, M, N, K, [](std::size_t rows, const auto& body) {
        std::vector<std::thread> pool;
        for (std::size_t end = rows; end > 0; end = end > 5 ? end - 5 : 0)
          pool.emplace_back([&body, end] { body(end > 5 ? end - 5 : 0, end); });
        for (std::thread& t : pool) t.join();
      });
  EXPECT_EQ(one.exact, split.exact);
  EXPECT_EQ(one.magnitude, split.magnitude);
  double c = 0, m = 0;  // C[3][4], summed here
  for (int k = 0; k < K; ++k) {
    c += static_cast<double>(A[3 * K + k]) * B[static_cast<std::size_t>(k) * N + 4];
    m += std::fabs(static_cast<double>(A[3 * K + k])) *
         std::fabs(static_cast<double>(B[static_cast<std::size_t>(k) * N + 4]));
  }
  EXPECT_EQ(one.exact[3 * N + 4], c);
  EXPECT_EQ(one.magnitude[3 * N + 4], m);
}

}  // namespace

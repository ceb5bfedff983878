/// @file tolerance.hpp
/// @brief How far an FP32 matrix product may be from the exact one in lesson 13_matmul_tiled, and
/// the host reference it is measured against. Plain C++ (no CUDA): the hidden tests, the bench
/// and the CPU test of the rule (tools/tolerance_test.cpp) share it.
///
/// The rule, per element of C = A B with K terms:
///
///     |got - exact| <= tolerance = u * min(K / (1 - K u), lambda * sqrt(K)) * sum_k |A[r][k]|
///     |B[k][c]|
///
/// with u = 2^-24 (the unit roundoff of float) and lambda = 4. The first term is the classic
/// worst-case bound of a float sum of K products in any order, with or without fused multiply-adds
/// (gamma_K, Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., section 3.1):
/// it holds always and is the smaller one for K < 16. The second is the probabilistic bound of
/// Higham and Mary ("A New Approach to Probabilistic Rounding Error Analysis", SIAM J. Sci.
/// Comput. 41(5), 2019): rounding errors that behave like independent random variables grow like
/// sqrt(K), not K. On the course's data the FP32 sums of three orders (one chain with and without
/// fused multiply-adds, eight interleaved partial sums) stay under a third of it; products of
/// inputs first rounded to 10 mantissa bits (TF32 tensor cores, half precision: relative error up
/// to 2^-11 per input) exceed it on most elements of every case up to K = 4,097 (measured by
/// tools/tolerance_test.cpp). The sum of magnitudes makes the rule scale with the data: the same
/// relative accuracy is asked of rows of large and of small values.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace matmul_tiled {

/// The unit roundoff of float: half the distance from 1 to the next float, 2^-24.
constexpr double kUnitRoundoff = 1.0 / 16777216.0;

/// The lambda of the probabilistic bound (see the file's comment).
constexpr double kLambda = 4.0;

/// The factor that multiplies sum_k |A[r][k]| |B[k][c]| in the tolerance of a product with K
/// terms: u * min(K / (1 - K u), lambda * sqrt(K)).
inline double tolerance_factor(int K) {
  const double k = static_cast<double>(K);
  const double worst_case = k * kUnitRoundoff / (1.0 - k * kUnitRoundoff);
  return std::min(worst_case, kLambda * std::sqrt(k) * kUnitRoundoff);
}

/// `x` rounded to TF32 as the tensor cores' conversion does (cvt.rna.tf32.f32: 10 explicit
/// mantissa bits, to nearest, ties away from zero), kept in a float. For the CPU test of the
/// tolerance and the lesson's examples; finite inputs only.
inline float round_to_tf32(float x) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  bits = (bits + 0x1000u) & 0xFFFFE000u;
  float y = 0;
  std::memcpy(&y, &bits, sizeof y);
  return y;
}

/// The exact product in double and, per element, the sum of the magnitudes of its K terms.
struct HostProduct {
  std::vector<double> exact;      ///< M x N, row-major: sum_k A[r][k] B[k][c], in double
  std::vector<double> magnitude;  ///< M x N, row-major: sum_k |A[r][k]| |B[k][c]|
  /// The tolerance of every element: tolerance_factor(K) x magnitude.
  std::vector<double> tolerance(int K) const {
    std::vector<double> t(magnitude.size());
    const double f = tolerance_factor(K);
    for (std::size_t i = 0; i < t.size(); ++i) t[i] = f * magnitude[i];
    return t;
  }
};

/// C = A B in double (a product of two floats is exact in double; K <= 2^20 terms keep the
/// double sum's own error below 2^-32 of the magnitude, far under any tolerance here), with the
/// magnitudes. Row by row, k outer, so the inner loop runs along rows of B and C. The rows are
/// independent: `for_rows(M, rows)` must call rows(begin, end) on ranges that cover [0, M) once
/// each, in any order and on any threads (the hidden tests pass harness::parallel_for).
/// @param A M x K floats, row-major
/// @param B K x N floats, row-major
/// @param M rows of A and of the product
/// @param N columns of B and of the product
/// @param K columns of A, rows of B (the terms of each sum)
/// @param for_rows how the rows are shared out: for_rows(M, rows) calls rows(begin, end)
template <typename ForRows>
HostProduct host_product(const std::vector<float>& A, const std::vector<float>& B, int M, int N,
                         int K, ForRows for_rows) {
  HostProduct p;
  const std::size_t n = static_cast<std::size_t>(N);
  p.exact.assign(static_cast<std::size_t>(M) * n, 0.0);
  p.magnitude.assign(p.exact.size(), 0.0);
  for_rows(static_cast<std::size_t>(M), [&](std::size_t begin, std::size_t end) {
    for (std::size_t r = begin; r < end; ++r) {
      double* c = p.exact.data() + r * n;
      double* s = p.magnitude.data() + r * n;
      for (int k = 0; k < K; ++k) {
        const double a = A[r * K + k], abs_a = std::fabs(a);
        const float* b = B.data() + static_cast<std::size_t>(k) * n;
        for (std::size_t j = 0; j < n; ++j) {
          c[j] += a * b[j];
          s[j] += abs_a * std::fabs(static_cast<double>(b[j]));
        }
      }
    }
  });
  return p;
}

}  // namespace matmul_tiled

/// @file host_reference.hpp
/// Lesson 05's host side, shared by its hidden tests (grader/lessons/05_warps/tests.cu) and its
/// bench tables (bench.cu): the inputs of uniform_branch with its expected output, computed on the
/// CPU with the same chains as the device (warps.cuh), and the integer data of array_sum.
#pragma once

#include <cstdint>
#include <vector>

#include "harness/data.hpp"
#include "warps.cuh"

namespace warps {

/// The input of uniform_branch and its expected output, each n floats.
struct BranchData {
  std::vector<float> x;         ///< x[i] = pool[k(i)], k drawn from the seed
  std::vector<float> expected;  ///< odd_work(x[i]) for odd i, even_work(x[i]) for even i
};

/// Inputs drawn from a pool of 4096 random floats (harness::random_floats), so the host evaluates
/// each chain 4096 times, not n times; the expected output from the pool's precomputed chains.
inline BranchData branch_data(std::size_t n, std::uint64_t seed) {
  constexpr std::size_t kPool = 4096;
  const std::vector<float> pool = harness::random_floats(kPool, seed);
  std::vector<float> even(kPool), odd(kPool);
  for (std::size_t k = 0; k < kPool; ++k) {
    even[k] = even_work(pool[k]);
    odd[k] = odd_work(pool[k]);
  }
  BranchData d{std::vector<float>(n), std::vector<float>(n)};
  const std::uint64_t salt = harness::mix(seed + 0x5eed);
  harness::parallel_for(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const std::size_t k = harness::mix(salt + i) % kPool;
      d.x[i] = pool[k];
      d.expected[i] = (i % 2 == 1) ? odd[k] : even[k];
    }
  });
  return d;
}

/// `n` nonzero integers in [-8, 8] as floats, element i from (seed, i) only. Every partial sum of
/// an order of additions that does not depend on the values stays far below 2^24 (the argument is
/// in grader/lessons/05_warps/tests.cu), so array_sum's result is compared exactly.
inline std::vector<float> nonzero_integers(std::size_t n, std::uint64_t seed) {
  std::vector<float> x(n);
  harness::parallel_for(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const std::uint64_t r = harness::mix(seed + i);
      const float magnitude = static_cast<float>(1 + r % 8);
      x[i] = (r >> 32) & 1 ? magnitude : -magnitude;
    }
  });
  return x;
}

}  // namespace warps

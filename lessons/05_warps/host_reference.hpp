/// @file host_reference.hpp
/// Lesson 05's host side, shared by its hidden tests (grader/lessons/05_warps/tests.cu) and its
/// bench tables (bench.cu): the inputs of uniform_branch with its expected output, computed on the
/// CPU with the same chains as the device (warps.cuh), and the integer data of array_sum.
#pragma once

#include <cstdint>
#include <vector>

#include "harness/data.hpp"
#include "harness/draw.hpp"
#include "warps.cuh"

namespace warps {

/// The input of uniform_branch and its expected output, each n floats.
struct BranchData {
  std::vector<float> x;         ///< x[i] = BranchInput{}(seed, i)
  std::vector<float> expected;  ///< odd_work(x[i]) for odd i, even_work(x[i]) for even i
};

/// Size of the pool of values uniform_branch's inputs are drawn from.
inline constexpr std::size_t kBranchPool = 4096;

/// Which pool value element i of an input drawn from `seed` holds.
HARNESS_HD inline std::size_t branch_pool_index(std::uint64_t seed, std::size_t i) {
  return harness::mix(harness::mix(seed + 0x5eed) + i) % kBranchPool;
}

/// uniform_branch's input as a draw (harness/draw.hpp): element i is value
/// branch_pool_index(seed, i) of a pool of kBranchPool random floats drawn from the same seed, so
/// the host evaluates each chain kBranchPool times, not n times (2^26 elements x 128 steps would
/// take the host seconds).
struct BranchInput {
  /// Element `i` of the values drawn from `seed`.
  HARNESS_HD float operator()(std::uint64_t seed, std::size_t i) const {
    return harness::RandomValues<float>{}(seed, branch_pool_index(seed, i));
  }
};

/// uniform_branch's expected output for n elements of BranchInput drawn from `seed`, from the
/// pool's chains computed once each.
inline std::vector<float> branch_expected(std::size_t n, std::uint64_t seed) {
  const std::vector<float> pool = harness::random_floats(kBranchPool, seed);
  std::vector<float> even(kBranchPool), odd(kBranchPool);
  for (std::size_t k = 0; k < kBranchPool; ++k) {
    even[k] = even_work(pool[k]);
    odd[k] = odd_work(pool[k]);
  }
  std::vector<float> expected(n);
  harness::parallel_for(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const std::size_t k = branch_pool_index(seed, i);
      expected[i] = (i % 2 == 1) ? odd[k] : even[k];
    }
  });
  return expected;
}

/// The input and the expected output of uniform_branch, on the host (the bench's data).
inline BranchData branch_data(std::size_t n, std::uint64_t seed) {
  return {harness::draw_values<float>(n, seed, BranchInput{}), branch_expected(n, seed)};
}

/// array_sum's integer data as a draw: nonzero integers in [-8, 8] as floats, element i from
/// (seed, i) only. Every partial sum of an order of additions that does not depend on the values
/// stays far below 2^24 (the argument is in grader/lessons/05_warps/tests.cu), so array_sum's
/// result is compared exactly.
struct NonzeroIntegers {
  /// Element `i` of the values drawn from `seed`.
  HARNESS_HD float operator()(std::uint64_t seed, std::size_t i) const {
    const std::uint64_t r = harness::mix(seed + i);
    const float magnitude = static_cast<float>(1 + r % 8);
    return (r >> 32) & 1 ? magnitude : -magnitude;
  }
};

/// `n` values of NonzeroIntegers from `seed`, on the host (the bench's data).
inline std::vector<float> nonzero_integers(std::size_t n, std::uint64_t seed) {
  return harness::draw_values<float>(n, seed, NonzeroIntegers{});
}

}  // namespace warps

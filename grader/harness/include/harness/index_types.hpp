/// @file index_types.hpp
/// @brief CUDA's index vector type `uint3` (the type of `threadIdx` and `blockIdx`) as an element
/// of a test's output: how a value is written in failure messages. With it, a kernel may store
/// `threadIdx` or `blockIdx` as is (`Output<uint3>`), and the comparisons of harness/lesson.hpp
/// (Case::expect_exact) work on it like on any other type.
#pragma once

#include <vector_types.h>  // uint3

#include <string>

#include "harness/data.hpp"

namespace harness {

/// "(x, y, z)", e.g. "(5, 3, 0)" (a poisoned, never-written element shows as
/// "(4278124286, 4278124286, 4278124286)", and the message says it was never written).
template <>
std::string show<uint3>(const uint3& v);

}  // namespace harness

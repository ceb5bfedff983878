/// @file resources.hpp
/// @brief Memory a test case needs before it allocates: a case whose buffers would not fit on
/// this GPU, or whose host-side copies would not fit in this machine's memory, is skipped with
/// the reason (harness::SkipCase) instead of failing with an allocation error or being killed.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace harness {

/// Device memory free right now on the current device (cudaMemGetInfo), bytes.
/// @throws CudaError when the query fails.
std::size_t free_device_bytes();

/// Host memory available to new allocations without swapping: MemAvailable of /proc/meminfo
/// (Linux), bytes. No value where that is unknown (not Linux, no /proc).
std::optional<std::size_t> available_host_bytes();

/// "33.0 GiB": bytes in binary units with one decimal, for messages.
std::string gib(std::size_t bytes);

/// Marks a case as large (several GiB, such as lesson 03's 2^31 elements) and checks that it fits.
/// Throws SkipCase (harness/lesson.hpp) under skip_large() (the grader's --quick, `dev check
/// --skip-large`, compute-sanitizer's quick mode: "large shape skipped"), or when less than
/// `device_bytes` of device memory is free or (where it can be read) less than `host_bytes` of
/// host memory is available. The message names `what` needs the memory, e.g. "2 arrays of
/// 2,147,483,665 floats and their guards", and both figures. Call it before the case draws its
/// inputs or allocates its first buffer.
/// @throws SkipCase, or CudaError when the device query fails.
void require_memory(std::size_t device_bytes, std::size_t host_bytes, const std::string& what);

}  // namespace harness

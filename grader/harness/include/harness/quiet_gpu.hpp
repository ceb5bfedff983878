/// @file quiet_gpu.hpp
/// @brief The GPU to itself for what is timed or profiled. The default grade runs
/// compute-sanitizer memcheck beside the hidden tests' correctness cases (they cannot disturb each
/// other's verdicts); a timed test, a profiled one, and a check that reads the whole device's state
/// (free memory) first wait until the grader says the GPU is quiet: the grader holds an flock on a
/// file (`--quiet-gpu-lock`) while anything else of the grade runs on the GPU, and this process
/// takes it. The hidden tests register correctness cases first (lesson.hpp), so that all of them
/// run beside memcheck. The lock file is created if missing; flocks go with their process, so a
/// grader that dies releases it.
#pragma once

#include <functional>
#include <string>

namespace harness {

/// The lock file to wait on (`--quiet-gpu-lock`; "" = never wait) and what to do about once a
/// second while waiting (main() writes a "waiting_for_quiet_gpu" record, so the grader sees the
/// process alive, also inside a running test; may be empty).
void set_quiet_gpu_lock(const std::string& path, std::function<void()> heartbeat = {});

/// Blocks until the GPU is quiet (the lock is had), with the heartbeat while it waits; then keeps
/// the lock until the process ends. Returns at once without a lock file, once the lock is had, or
/// if the file cannot be opened (nothing to wait for).
void wait_for_quiet_gpu();

/// Whether the tests of `suite` may run while something else uses the GPU: the correctness cases
/// ("<step>/Correct"); timed ("<step>/Speed") and profiled tests may not.
bool runs_beside_other_work(const std::string& suite);

}  // namespace harness

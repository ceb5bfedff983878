/// @file record.hpp
/// @brief Structured facts a hidden test reports about itself (shape, seed, measurements). The
/// test reporter attaches them to the test's "end" record (see course/protocol.hpp).
#pragma once

#include <cstddef>
#include <string>

namespace harness {

/// Sets property `key` of the running test to a number (replacing an earlier value of `key`).
void record(const std::string& key, double value);
/// Sets property `key` of the running test to a string.
void record(const std::string& key, const std::string& value);
/// Sets property `key` of the running test to a string (so a literal does not become a bool).
void record(const std::string& key, const char* value);
/// Sets property `key` of the running test to true or false.
void record(const std::string& key, bool value);
/// Sets property `key` of the running test to JSON null (e.g. "gate" of a step without one).
void record_null(const std::string& key);

/// The seed of this process's random inputs (--seed, chosen by the grader and printed).
unsigned long long seed();
/// Sets the value seed() returns; called once by the test main from --seed.
void set_seed(unsigned long long seed);

/// Whether the process runs in quick mode (--quick: small shapes only, no timing), used under
/// compute-sanitizer.
bool quick();
/// Sets the value quick() returns; called once by the test main from --quick.
void set_quick(bool quick);

/// Whether large cases are skipped: under --skip-large (the grader's --quick, `dev check
/// --skip-large`, the test preset's solution and stub tests) and under --quick. Two kinds skip:
/// cases that need several GiB of memory (lesson 03's 2^31 elements), which say so by calling
/// harness::require_memory (harness/resources.hpp), and correctness cases with a buffer of more
/// than kLargestQuickCase elements (Case's buffers check that). The timed case always runs.
bool skip_large();
/// The most elements (of any type) a buffer of a correctness case may have under skip_large():
/// 2^23, 32 MiB of floats. The larger cases (05's sum of 2^26 + 17 floats, 10's sum of 2^25,
/// 11's scans of 2^23 + 2,065) took most of the grader's --quick on our H200
/// (docs/measured/H200.md, twenty-fourth session); the cases of 2^22 plus a few elements, which
/// end on a partial tile, stay. Which lessons' cases skip: docs/INSTRUCTORS.md, "Sanitizers".
inline constexpr std::size_t kLargestQuickCase = std::size_t(1) << 23;
/// Sets --skip-large; called once by the test main.
void set_skip_large(bool skip);

/// Whether profiled tests (lesson 15's Nsight Compute run) skip: under --skip-profiled (the
/// grader's --quick on a whole lesson, where Nsight Compute took 3 of 15's 4.5 s on our H200,
/// docs/measured/H200.md, sixteenth session) and under --quick.
bool skip_profiled();
/// Sets --skip-profiled; called once by the test main.
void set_skip_profiled(bool skip);

}  // namespace harness

/// @file record.hpp
/// @brief Structured facts a hidden test reports about itself (shape, seed, measurements). The
/// test reporter attaches them to the test's "end" record (see course/protocol.hpp).
#pragma once

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

/// Whether cases that need several GiB of memory (lesson 03's 2^31 elements) are skipped: under
/// --skip-large (the grader's --quick, `dev check --skip-large`) and under --quick. Such a case
/// says so by calling harness::require_memory (harness/resources.hpp), which does the skipping.
bool skip_large();
/// Sets --skip-large; called once by the test main.
void set_skip_large(bool skip);

/// Whether profiled tests (lesson 15's Nsight Compute run) skip: under --skip-profiled (the
/// grader's --quick on a whole lesson, where Nsight Compute took 3 of 15's 4.5 s on our H200,
/// docs/measured/H200.md, sixteenth session) and under --quick.
bool skip_profiled();
/// Sets --skip-profiled; called once by the test main.
void set_skip_profiled(bool skip);

}  // namespace harness

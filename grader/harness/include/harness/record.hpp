/// @file record.hpp
/// @brief Structured facts a hidden test reports about itself (shape, seed, measurements). The
/// test reporter attaches them to the test's "end" record (see course/protocol.hpp).
#pragma once

#include <string>

namespace harness {

void record(const std::string& key, double value);
void record(const std::string& key, const std::string& value);
void record(const std::string& key, const char* value);
void record(const std::string& key, bool value);
void record_null(const std::string& key);

/// The seed of this process's random inputs (--seed, chosen by the grader and printed).
unsigned long long seed();
void set_seed(unsigned long long seed);

/// Whether the process runs in quick mode (--quick: small shapes only, no timing), used under
/// compute-sanitizer.
bool quick();
void set_quick(bool quick);

}  // namespace harness

/// @file advice.hpp
/// @brief How `grader profile 08_bank_conflicts` reads the bank-conflict counters
/// (profile_advice.cpp registers it): the extra wavefronts per shared-load instruction, and what to
/// try next.
#pragma once

#include <string>

namespace bank_conflicts::advice {

/// Extra wavefronts per shared-load instruction above which the loads count as conflicted: more
/// than one extra pass per load on average (a 2-way conflict on every load, or a worse one on
/// some of them).
constexpr double kConflicted = 1.0;
/// At or below this the loads count as conflict-free: the counter is not exactly zero for
/// conflict-free kernels (WARMUP §7.8 reports a small residue for lesson 07's padded tile).
constexpr double kConflictFree = 0.05;

/// The reading of the counters.
struct Verdict {
  double extra_per_load = 0;  ///< bank conflicts / shared-load instructions
  std::string summary;        ///< "N-way conflicts", "conflict-free" or "a few conflicts"
  std::string next;           ///< the next experiment, for the verdict line
};

/// Judges `conflicts` bank conflicts over `instructions` shared-load instructions (> 0).
Verdict judge(double conflicts, double instructions);

}  // namespace bank_conflicts::advice

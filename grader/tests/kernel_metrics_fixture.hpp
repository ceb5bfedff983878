// Kernel metrics as Nsight Compute would report them, for the verdict-line tests of the core and
// of the lessons' advice (lessons/*/tools/*_test.cpp).
#pragma once

#include "course/profile.hpp"

namespace test_fixture {

/// Memory and Compute throughput (% of peak), sectors per global load and store request, shared
/// load bank conflicts and shared load instructions; 100 requests each way, occupancy 80%.
inline course::profile::KernelMetrics metrics(double mem, double sm, double ld_spr, double st_spr,
                                              double conflicts, double shared_ld) {
  course::profile::KernelMetrics m;
  m.kernel = "k";
  m.memory_pct = mem;
  m.compute_pct = sm;
  m.ld_requests = m.st_requests = 100;
  m.ld_sectors = 100 * ld_spr;
  m.st_sectors = 100 * st_spr;
  m.bank_conflicts_ld = conflicts;
  m.bank_conflicts_st = 0;
  m.shared_ld_instructions = shared_ld;
  m.occupancy_pct = 80;
  return m;
}

}  // namespace test_fixture

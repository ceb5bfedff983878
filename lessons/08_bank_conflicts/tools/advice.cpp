#include "advice.hpp"

#include <fmt/format.h>

#include <cmath>

namespace bank_conflicts::advice {

Verdict judge(double conflicts, double instructions) {
  Verdict v;
  v.extra_per_load = instructions > 0 ? conflicts / instructions : 0;
  if (v.extra_per_load > kConflicted) {
    // On average each load takes 1 + extra passes: at least that many ways on the worst loads.
    v.summary =
        fmt::format("at least {:.0f}-way conflicts on average", std::floor(1 + v.extra_per_load));
    v.next =
        "to pad or swizzle the tile that is read down a column (the B tile), so that the 32 lanes "
        "of a warp hit 32 different banks: grader banks shows which lanes share a bank";
  } else if (v.extra_per_load <= kConflictFree) {
    v.summary = "conflict-free";
    v.next =
        "none for the banks: the shared loads are conflict-free, so what is left is their number "
        "(64 per output element here); holding several outputs per thread in registers, as lesson "
        "13's register tiling does, reads each shared word fewer times";
  } else {
    v.summary = "a few conflicts";
    v.next =
        "to check the layout with grader banks: for 8-byte elements a conflict-free warp load "
        "already takes 2 wavefronts, so compare with the double rung (tile_product_rows_64) "
        "before changing anything";
  }
  return v;
}

}  // namespace bank_conflicts::advice

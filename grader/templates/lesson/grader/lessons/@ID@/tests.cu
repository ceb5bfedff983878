// Hidden tests of lesson @ID@: "copy/Correct.n_<n>" (exact result on many sizes) and
// "copy/Speed.timed" (against the copy rung the manifest names). Written with the harness's
// pieces (harness/lesson.hpp); this file keeps only the sizes, the host reference and wording.
#include <vector>

#include "@NAME@.cuh"
#include "harness/lesson.hpp"
#include "steps/@ID@.hpp"

namespace {

using @NAME@::Step;

// One element; one short of, at and one past a warp and a block; a prime; a multi-block grid.
const std::vector<int> kSizes = {1, 31, 32, 33, 255, 256, 257, 1000, 1000003};

// As many floats as the square timing matrix: in + out are at least 4x the L2.
int timing_n() {
  return static_cast<int>(harness::timing_elements(2, sizeof(float)));
}

void copy_case(harness::Case& c, const int& n) {
  c.describe("copy", fmt::format("n = {} floats", n));
  const auto in = c.input<float>("in", n);
  const auto out = c.output<float>("out", n);
  c.launch(@NAME@::launch_copy, in, out, n);
  c.ceiling(@NAME@::launch_copy_rung, in, out, n);
  c.bytes(2.0 * n * sizeof(float));
  c.expect_exact(out, in.host());
}

}  // namespace

COURSE_TESTS {
  harness::correctness(Step::copy, kSizes, harness::name_n, copy_case);
  harness::speed(Step::copy, timing_n, copy_case);
}

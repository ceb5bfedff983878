// Hidden tests of lesson 04_matrix_2d: "dense/Correct.<rows>x<cols>" (no speed gate) and
// "pitched/Correct.<rows>x<cols>[_wide_out]" plus "pitched/Speed.timed" against copy_pitched.
//
// Comparison. out = a * x + b may be compiled as one fused multiply-add (one rounding, nvcc's
// default) or as a multiply and an add (two roundings); both are right. Each element is compared
// with the exact value (double precision) within the distance of the farther of those two float
// results, so either rounding passes and nothing else further away does: a neighbour's value, a
// padding byte or a missing `+ b` is far outside it.
//
// Pitched buffers come from harness/pitched.hpp: a real cudaMallocPitch allocation per matrix,
// padding and guard rows holding sentinels that are checked after every launch. Most widths are
// odd numbers of floats (4 bytes past a multiple of 8), so no pitch alignment can make the pitch
// equal the width; a kernel that steps by cols elements from row to row cannot pass on them.
#include <algorithm>
#include <cmath>
#include <vector>

#include "harness/lesson.hpp"
#include "harness/pitched.hpp"
#include "matrix_2d.cuh"
#include "steps/04_matrix_2d.hpp"

namespace {

using matrix_2d::Step;

struct Shape {
  int rows, cols;
  bool wide_out = false;  // pitched only: the output gets a pitch larger than the input's
};

std::string shape_name(const Shape& s) {
  return harness::shape_name(s.rows, s.cols) + (s.wide_out ? "_wide_out" : "");
}

// 1x1; 1xN and Nx1; one short of and one past a warp's 32 columns, a block's 8 rows and 256
// columns; primes; non-square both ways (a row/column swap leaves a strip unwritten); multi-block
// grids; Nx1 with a grid of 12,501 blocks in y.
const std::vector<Shape> kDenseShapes = {
    {1, 1},   {1, 777},     {777, 1},     {7, 9},      {8, 32},    {9, 31},
    {31, 33}, {33, 31},     {17, 255},    {257, 9},    {63, 65},   {97, 61},
    {61, 97}, {1023, 1025}, {2048, 1536}, {1, 100003}, {100003, 1}};

// As above, with widths whose pitch differs from the width (odd counts of floats), one width of
// 128 floats (512 bytes, which the pitch may equal), and shapes whose output has a pitch of its
// own (in_pitch != out_pitch). Nx1 is smaller than in `dense`: every row of a pitched Nx1 matrix
// is a whole pitch (512 bytes or so) for 4 bytes of data, plus guard rows.
const std::vector<Shape> kPitchedShapes = {
    {1, 1},      {1, 777},   {777, 1},       {7, 9},         {9, 31},
    {31, 33},    {33, 31},   {17, 255},      {257, 9},       {63, 65},
    {97, 61},    {61, 97},   {8, 128},       {1023, 1025},   {2048, 1537},
    {1, 100003}, {20011, 1}, {33, 31, true}, {97, 61, true}, {1023, 1025, true}};

// Square-ish and large: in + out at least 4x the L2 (8192 rows on a GPU with up to 128 MiB of
// L2). 8 floats fewer than the side per row: every row is whole 32-byte sectors (8184 floats =
// 1,023 sectors) and starts on the pitch's alignment, and the pitch exceeds the width wherever
// cudaMallocPitch aligns rows to 64 bytes or more (8184 * 4 is an odd multiple of 32).
Shape timing_shape() {
  const int side = static_cast<int>(harness::timing_side(2, sizeof(float)));
  return {side, side - 8};
}

// Random factors: never 0, so that a kernel that drops a or b cannot match.
std::pair<float, float> factors(std::uint64_t seed) {
  std::vector<float> v = harness::random_floats(2, seed);
  for (float& x : v)
    if (x == 0.0f) x = 0.5f;
  return {v[0], v[1]};
}

// The exact a * x + b and how far from it a right answer may be (see the top of this file).
void reference(const std::vector<float>& in, float a, float b, std::vector<double>& exact,
               std::vector<double>& tolerance) {
  exact.resize(in.size());
  tolerance.resize(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    exact[i] = static_cast<double>(a) * in[i] + b;  // the product is exact in double
    const float fused = std::fma(a, in[i], b);
    volatile float product = a * in[i];  // volatile: no contraction into an FMA on the host
    const float separate = product + b;
    tolerance[i] = std::max(std::fabs(fused - exact[i]), std::fabs(separate - exact[i]));
  }
}

// The device reference (harness::Reference): the same exact value and tolerance, element i from
// the input's draw; every operation rounded once as on the host (__dmul_rn, __fmaf_rn, ...:
// nothing contracted).
struct ScaleAddOfDraws {
  std::uint64_t in_seed;
  float a, b;
  __device__ harness::Near operator()(std::size_t i) const {
    const float x = harness::RandomValues<float>{}(in_seed, i);
    const double exact = __dadd_rn(__dmul_rn(static_cast<double>(a), static_cast<double>(x)),
                                   static_cast<double>(b));
    const float fused = __fmaf_rn(a, x, b), separate = __fadd_rn(__fmul_rn(a, x), b);
    return {exact, fmax(fabs(__dsub_rn(static_cast<double>(fused), exact)),
                        fabs(__dsub_rn(static_cast<double>(separate), exact)))};
  }
};

// When elements were never written: where they are. A strip along the bottom edge from row
// 32 * ceil(cols / 32) on, or along the right edge from column 8 * ceil(rows / 8) on, is exactly
// what a kernel that takes the row from the x indices (and the column from y) cannot reach under
// this launch: then say so.
template <typename Out>
harness::Advice unwritten_region(const Out& out, int rows, int cols) {
  return [&out, rows, cols](const harness::Mismatches& m) -> std::string {
    if (m.unwritten == 0) return "";
    const std::vector<float> got = out.download();
    int r0 = rows, r1 = -1, c0 = cols, c1 = -1;
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        if (harness::still_poisoned(got[static_cast<std::size_t>(r) * cols + c])) {
          r0 = std::min(r0, r);
          r1 = std::max(r1, r);
          c0 = std::min(c0, c);
          c1 = std::max(c1, c);
        }
    std::string text = fmt::format(
        "The elements never written lie in rows {} to {}, columns {} to {}", r0, r1, c0, c1);
    const int gx = (cols + 31) / 32, gy = (rows + 7) / 8;
    const bool full = m.unwritten == static_cast<std::size_t>(r1 - r0 + 1) * (c1 - c0 + 1) &&
                      r1 == rows - 1 && c1 == cols - 1;
    const bool bottom = full && c0 == 0 && r0 == 32 * gx;
    const bool right = full && r0 == 0 && c0 == 8 * gy;
    if (bottom || right)
      text += fmt::format(
          ": a strip along the {} edge that no thread wrote, from {} {} = {} * ceil({} / {}) on, "
          "which is where a grid whose x indices run over the rows ends. The launch has "
          "ceil(cols / 32) x ceil(rows / 8) = {} x {} blocks of 32 x 8 threads: the x indices "
          "must run over the columns and the y indices over the rows",
          bottom ? "bottom" : "right", bottom ? "row" : "column", bottom ? r0 : c0, bottom ? 32 : 8,
          bottom ? "cols" : "rows", bottom ? 32 : 8, gx, gy);
    return text;
  };
}

void dense(harness::Case& c, const Shape& s) {
  const auto [a, b] = factors(c.seed() + 1);
  c.describe("scale_add_dense", fmt::format("{}x{} (rows x cols, dense row-major), a = {}, b = {}",
                                            s.rows, s.cols, a, b));
  const std::size_t n = static_cast<std::size_t>(s.rows) * s.cols;
  const auto in = c.input<float>("in", n);
  const auto out = c.output<float>("out", n);
  c.launch(matrix_2d::launch_scale_add_dense, in, out, s.rows, s.cols, a, b);
  std::vector<double> exact, tolerance;
  reference(in.host(), a, b, exact, tolerance);
  c.expect_near(out, exact, tolerance, harness::row_major(s.cols),
                unwritten_region(out, s.rows, s.cols));
}

void pitched(harness::Case& c, const Shape& s) {
  const std::pair<float, float> ab = factors(c.seed() + 1);
  const float a = ab.first, b = ab.second;
  c.describe("scale_add_pitched", shape_name(s));
  const auto in = harness::pitched_input<float>(c, "in", s.rows, s.cols);
  const auto out =
      harness::pitched_output<float>(c, "out", s.rows, s.cols, s.wide_out ? in.pitch() + 1 : 0);
  c.describe("scale_add_pitched",
             fmt::format("{}x{} (rows x cols; {} bytes of data per row, in_pitch = {}, "
                         "out_pitch = {} bytes), a = {}, b = {}",
                         s.rows, s.cols, s.cols * sizeof(float), in.pitch(), out.pitch(), a, b));
  c.launch(matrix_2d::launch_scale_add_pitched, in.data(), in.pitch(), out.data(), out.pitch(),
           s.rows, s.cols, a, b);
  c.ceiling(matrix_2d::launch_copy_pitched, in.data(), in.pitch(), out.data(), out.pitch(), s.rows,
            s.cols);
  c.bytes(2.0 * static_cast<double>(s.rows) * s.cols * sizeof(float));  // padding not counted
  const auto host = [&] {
    std::pair<std::vector<double>, std::vector<double>> r;
    reference(in.host(), a, b, r.first, r.second);
    return r;
  };
  harness::expect_near(c, out, harness::reference(host, ScaleAddOfDraws{in.seed(), a, b}),
                       harness::row_major(s.cols), unwritten_region(out, s.rows, s.cols));
}

}  // namespace

COURSE_TESTS {
  harness::correctness(Step::dense, kDenseShapes, shape_name, dense);
  harness::correctness(Step::pitched, kPitchedShapes, shape_name, pitched);
  harness::speed(Step::pitched, timing_shape, pitched);
}

// Hidden tests of lesson 09_vectorized_memory.
//
//   scale_view/Correct.<case>    out[i] = a * in[i] on views that start at element 0, 1, 2 or 3
//                                past a 16-byte boundary, for n from 0 up past a million; the
//                                output array holds the view at an offset, and the elements
//                                before the view are part of the checked output: they must keep
//                                their poison (a kernel that rounds the head down to a 16-byte
//                                boundary writes there and is caught). The elements after the view
//                                are the output's guard (checked by the harness).
//   scale_view/Correct.refused_* the launcher's preconditions: views of different misalignment,
//                                n < 0 (cudaErrorInvalidValue, nothing written)
//   scale_view/Speed.timed       n = 2^26 on an H200 (2 arrays >= 4x L2), both views one element
//                                past a boundary, against cudaMemcpyAsync of the same view
//   transpose_64/Correct.<r>x<c> shapes whose sides are multiples of 4: 4x4, thin, one short of
//                                and one past a 64 tile, non-square both ways, multi-block
//   transpose_64/Correct.refused_* sides not multiples of 4, a misaligned pointer
//   transpose_64/Speed.timed     square timing matrix (16384^2 on an H200: twice the side of the
//                                other lessons' timing shapes) against cudaMemcpyAsync of the same
//                                bytes
//
// Comparison: the scale is a power of two (never 0 or 1), so a * in[i] is exact; a transpose
// moves bits. Both are compared bit for bit.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "course/report.hpp"
#include "harness/lesson.hpp"
#include "steps/09_vectorized_memory.hpp"
#include "vectorized_memory.cuh"

namespace {

using vectorized_memory::Step;

// ============================== scale_view ==============================

struct View {
  int n;
  int in_offset;   // the view starts at element in_offset of its input array
  int out_offset;  // and at element out_offset of its output array
};

std::string view_name(const View& v) {
  return fmt::format("n_{}_in_at_{}_out_at_{}", v.n, v.in_offset, v.out_offset);
}

// n = 0 .. 9 (every head and tail length), one short of / at / one past a warp's 32 vectors (128
// floats) and a block's 256 vectors (1024 floats, VECTORS_PER_THREAD = 1) and two blocks' worth,
// primes, multi-block sizes.
const int kViewSizes[] = {0,    1,    2,    3,    4,    5,     6,      7,      8,
                          9,    31,   33,   127,  128,  129,   1023,   1024,   1025,
                          1027, 2047, 2048, 2049, 4099, 65537, 100003, 1000003};

// Every misalignment 0..3 for the input; the output at the same misalignment, at the same element
// or 4 or 8 elements further into its array (so a kernel that takes the head from one pointer and
// indexes the other with it is caught, and elements before the output view exist to guard).
std::vector<View> view_cases() {
  std::vector<View> out;
  int k = 0;
  for (int o = 0; o < 4; ++o)
    for (int n : kViewSizes) out.push_back({n, o, o + 4 * (k++ % 3)});
  out.push_back({(1 << 22) + 3, 2, 6});  // a large one: 8192 blocks
  return out;
}

View timing_view() {
  return {static_cast<int>(harness::timing_elements(2, sizeof(float))), 1, 1};
}

// A power of two, never 0 or 1 (a copy must not pass), picked by the seed.
float scale_for(std::uint64_t seed) {
  static const float kScales[] = {2.0f, -0.5f, 4.0f, -2.0f, 0.25f, -4.0f, 0.5f};
  return kScales[seed % (sizeof(kScales) / sizeof(kScales[0]))];
}

float poison_float() {
  float f;
  std::memset(&f, harness::kOutputPoison, sizeof f);
  return f;
}

int head_of(int offset, int n) {
  return std::min((4 - offset % 4) % 4, n);
}

// Element k of the output array, in the view's own coordinates.
harness::Where view_where(const View& v) {
  return [v](const std::string& name, std::size_t k) {
    const long long i = static_cast<long long>(k) - v.out_offset;
    if (i < 0)
      return fmt::format("{}[{}], {} element{} before the view's first element {}[0]", name, i, -i,
                         i == -1 ? "" : "s", name);
    return fmt::format("{}[{}]", name, i);
  };
}

// Which part of the view the first wrong element is in, and what that says about the kernel.
harness::Advice view_advice(const View& v) {
  return [v](const harness::Mismatches& m) -> std::string {
    const long long i = static_cast<long long>(m.first) - v.out_offset;
    const int head = head_of(v.out_offset, v.n);
    const int tail_start = head + (v.n - head) / 4 * 4;
    if (i < 0)
      return fmt::format(
          "The kernel wrote before the view: out[0] is {} float{} past a 16-byte boundary, and "
          "the {} float{} before it belong to somebody else. The head is out[0] .. out[{}], copied "
          "one float at a time; rounding the address down to a boundary to use a float4 there "
          "writes outside the view",
          v.out_offset % 4, v.out_offset % 4 == 1 ? "" : "s", v.out_offset,
          v.out_offset == 1 ? "" : "s", head - 1);
    if (!m.first_unwritten) return "";
    if (i < head)
      return fmt::format(
          "out[{}] is in the head (out[0] .. out[{}]: the view starts {} float{} past a 16-byte "
          "boundary): the floats before the first boundary need one scalar copy each",
          i, head - 1, v.out_offset % 4, v.out_offset % 4 == 1 ? "" : "s");
    if (i >= tail_start)
      return fmt::format(
          "out[{}] is in the tail (out[{}] .. out[{}]: the {} float{} after the last whole float4 "
          "of the body, (n - head) % 4 with head = {}): they need one scalar copy each",
          i, tail_start, v.n - 1, v.n - tail_start, v.n - tail_start == 1 ? "" : "s", head);
    return fmt::format(
        "out[{}] is in the float4 body, vector {} (counting from out[{}], the first 16-byte "
        "boundary): block {} owns it with VECTORS_PER_THREAD = {} vectors per thread",
        i, (i - head) / 4, head,
        (i - head) / 4 / (vectorized_memory::VIEW_THREADS * vectorized_memory::VECTORS_PER_THREAD),
        vectorized_memory::VECTORS_PER_THREAD);
  };
}

// The device reference of scale_view (harness::Reference): the output array before the view
// keeps its poison; element out_offset + i of it is a * in[in_offset + i], one rounding.
struct ScaledView {
  std::uint64_t in_seed;
  std::size_t in_offset, out_offset;
  float a;
  __device__ float operator()(std::size_t j) const {
    if (j < out_offset) return __uint_as_float(0x01010101u * harness::kOutputPoison);
    return __fmul_rn(a, harness::RandomValues<float>{}(in_seed, in_offset + j - out_offset));
  }
};

void view_case(harness::Case& c, const View& v) {
  const float a = scale_for(c.seed());
  c.describe("scale_view",
             fmt::format("n = {}, a = {}; in starts at element {} of its array, out at element {} "
                         "of its array ({} float{} past a 16-byte boundary)",
                         course::group_thousands(v.n), a, v.in_offset, v.out_offset,
                         v.out_offset % 4, v.out_offset % 4 == 1 ? "" : "s"));
  const auto in = c.input<float>("in", static_cast<std::size_t>(v.in_offset) + v.n);
  const auto out = c.output<float>("out", static_cast<std::size_t>(v.out_offset) + v.n);
  const float* in_view = in.data() + v.in_offset;
  float* out_view = out.data() + v.out_offset;
  c.launch(vectorized_memory::launch_scale_view, in_view, out_view, v.n, a);
  c.ceiling(vectorized_memory::launch_memcpy, in_view, out_view, static_cast<long long>(v.n));
  c.bytes(2.0 * v.n * sizeof(float));
  const auto host = [&] {
    std::vector<float> expected(out.size(), poison_float());  // before the view: untouched
    const std::vector<float>& hin = in.host();
    harness::parallel_for(static_cast<std::size_t>(v.n), [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i)
        expected[v.out_offset + i] = a * hin[v.in_offset + i];
    });
    return expected;
  };
  c.expect_exact(
      out,
      harness::reference(host, ScaledView{in.seed(), static_cast<std::size_t>(v.in_offset),
                                          static_cast<std::size_t>(v.out_offset), a}),
      view_where(v), view_advice(v));
}

// The launcher's preconditions: nothing may be launched, nothing written.
struct Refused {
  int n, in_offset, out_offset;
  const char* why;
};
const std::vector<Refused> kRefusedViews = {
    {100, 0, 1, "in is 16-byte aligned, out 4 bytes past a boundary"},
    {100, 2, 1, "in 8 bytes past a boundary, out 4"},
    {5, 3, 0, "in 12 bytes past a boundary, out aligned"},
    {-1, 0, 0, "n = -1"}};

std::string error_text(cudaError_t e) {
  return fmt::format("{} ({})", cudaGetErrorName(e), cudaGetErrorString(e));
}

void refused_view(harness::Case& c, const Refused& r) {
  c.describe("launch_scale_view", fmt::format("n = {}, in at element {}, out at element {} ({})",
                                              r.n, r.in_offset, r.out_offset, r.why));
  const int n = std::max(r.n, 0);
  const auto in = c.input<float>("in", static_cast<std::size_t>(r.in_offset) + n);
  const auto out = c.output<float>("out", static_cast<std::size_t>(r.out_offset) + n);
  const cudaError_t e = vectorized_memory::launch_scale_view(in.data() + r.in_offset,
                                                             out.data() + r.out_offset, r.n, 2.0f);
  harness::check(cudaDeviceSynchronize(), "synchronize after launch_scale_view");
  if (e != cudaErrorInvalidValue)
    c.fail(fmt::format("launch_scale_view returned {}, expected cudaErrorInvalidValue ({})",
                       error_text(e), r.why));
  c.expect_exact(out, std::vector<float>(out.size(), poison_float()));
}

// ============================== transpose_64 ==============================

struct Shape {
  int rows, cols;
};

// The smallest shape; one 4-row band and one 4-column band; one short of, at and one 4x4 block
// past a tile (60, 64, 68); a single partial tile; non-square both ways; a 1-D grid of 1563 tiles
// both ways; multi-block.
const std::vector<Shape> kShapes = {
    {4, 4},       {4, 8},       {8, 4},      {4, 4096},   {4096, 4},    {60, 60},    {64, 64},
    {68, 68},     {60, 68},     {68, 60},    {12, 200},   {200, 12},    {128, 192},  {196, 132},
    {1020, 1028}, {1028, 1020}, {4, 100004}, {100004, 4}, {2048, 1536}, {1536, 2052}};

std::string shape_name(const Shape& s) {
  return harness::shape_name(s.rows, s.cols);
}

// Twice the usual side: on our H200 the 64x64 kernel and lesson 07's padded 32x32 one were 10.3
// points of cudaMemcpyAsync apart at 16384^2 (94.6% and 84.3%) and only 8.5 at 8192^2 (95.5% and
// 87.0%), with a smaller spread (0.1-0.3%): there the gate can sit 5 points from each
// (tools/probes/09_calibrate.cu, lessons/09_vectorized_memory/calibration.md). timing_side(8, ...)
// sizes 8 arrays of the usual side, so the 2 arrays of twice the side fit wherever it says they do.
Shape timing_shape() {
  const int side = 2 * static_cast<int>(harness::timing_side(8, sizeof(float)));
  return {side, side};
}

// Where the first wrong element of the output sits among the tiles.
harness::Advice transpose_advice(const Shape& s) {
  return [s](const harness::Mismatches& m) -> std::string {
    const int orow = static_cast<int>(m.first / s.rows), ocol = static_cast<int>(m.first % s.rows);
    // Output (orow, ocol) is input (ocol, orow): tile (by, bx) = (ocol / 64, orow / 64).
    const int by = ocol / vectorized_memory::TILE, bx = orow / vectorized_memory::TILE;
    const bool partial =
        (by + 1) * vectorized_memory::TILE > s.rows || (bx + 1) * vectorized_memory::TILE > s.cols;
    std::string where = fmt::format(
        "It comes from input element (row {}, col {}): the tile of blockIdx = ({}, {}), the 4x4 "
        "block that thread (threadIdx.x = {}, threadIdx.y = {}) loads",
        ocol, orow, bx, by, (orow % 64) / 4, (ocol % 64) / 4);
    if (partial && m.first_unwritten)
      where += fmt::format(
          ". That tile is partial ({} rows x {} cols are inside the matrix): its 4x4 blocks inside "
          "the matrix must be moved too, and only the ones outside skipped",
          std::min(64, s.rows - by * 64), std::min(64, s.cols - bx * 64));
    return where;
  };
}

void transpose_case(harness::Case& c, const Shape& s) {
  c.describe("transpose_64",
             fmt::format("{}x{} (rows x cols; out is {}x{})", s.rows, s.cols, s.cols, s.rows));
  const std::size_t n = static_cast<std::size_t>(s.rows) * s.cols;
  const auto in = c.input<float>("in", n);
  const auto out = c.output<float>("out", n);
  c.launch(vectorized_memory::launch_transpose_64, in, out, s.rows, s.cols);
  c.ceiling(vectorized_memory::launch_memcpy, in, out, static_cast<long long>(n));
  c.bytes(2.0 * n * sizeof(float));
  const auto rows = static_cast<std::size_t>(s.rows), cols = static_cast<std::size_t>(s.cols);
  c.expect_exact(
      out,
      harness::reference([&] { return harness::host_transpose(in.host(), s.rows, s.cols); },
                         harness::TransposeOfDraw<float>{in.seed(), rows, cols}),
      harness::row_major(s.rows), transpose_advice(s));
}

struct RefusedShape {
  int rows, cols, in_offset;
  const char* why;
};
const std::vector<RefusedShape> kRefusedShapes = {
    {6, 8, 0, "rows = 6 is not a multiple of 4"},
    {8, 6, 0, "cols = 6 is not a multiple of 4"},
    {1, 1, 0, "1x1: sides not multiples of 4"},
    {8, 8, 1, "in starts 4 bytes past a 16-byte boundary"}};

void refused_transpose(harness::Case& c, const RefusedShape& r) {
  c.describe("launch_transpose_64", fmt::format("{}x{} ({})", r.rows, r.cols, r.why));
  const std::size_t n = static_cast<std::size_t>(r.rows) * r.cols;
  const auto in = c.input<float>("in", n + r.in_offset);
  const auto out = c.output<float>("out", n);
  const cudaError_t e =
      vectorized_memory::launch_transpose_64(in.data() + r.in_offset, out.data(), r.rows, r.cols);
  harness::check(cudaDeviceSynchronize(), "synchronize after launch_transpose_64");
  if (e != cudaErrorInvalidValue)
    c.fail(fmt::format("launch_transpose_64 returned {}, expected cudaErrorInvalidValue ({})",
                       error_text(e), r.why));
  c.expect_exact(out, std::vector<float>(out.size(), poison_float()));
}

}  // namespace

COURSE_TESTS {
  harness::correctness(Step::scale_view, view_cases(), view_name, view_case);
  harness::correctness(
      Step::scale_view, kRefusedViews,
      [](const Refused& r) {
        return fmt::format("refused_n_{}_in_at_{}_out_at_{}",
                           r.n < 0 ? std::string("minus_1") : std::to_string(r.n), r.in_offset,
                           r.out_offset);
      },
      refused_view);
  harness::speed(Step::scale_view, timing_view, view_case);
  harness::correctness(Step::transpose_64, kShapes, shape_name, transpose_case);
  harness::correctness(
      Step::transpose_64, kRefusedShapes,
      [](const RefusedShape& r) {
        return fmt::format("refused_{}x{}{}", r.rows, r.cols, r.in_offset ? "_in_misaligned" : "");
      },
      refused_transpose);
  harness::speed(Step::transpose_64, timing_shape, transpose_case);
}

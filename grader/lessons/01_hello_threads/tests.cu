// Hidden tests of lesson 01_hello_threads: "<step>/Correct.<launch>" for many launch shapes. No
// step is timed (the lesson has no speed gate), so no "<step>/Speed" test is registered.
//
// The index steps: every thread writes its slot (its global id) of seven arrays; every array is
// poisoned before the launch, so a slot nobody wrote shows as never written, and its guard
// elements show a write past the last slot. The host reference numbers threads and blocks x
// fastest (CUDA C++ Programming Guide, "Thread Hierarchy") and cuts warps of 32 from the linear
// thread index of the block ("SIMT Architecture"). The first array that differs is reported in
// full, with the likely mistake when its pattern is recognised; the others are named.
//
// The printf step: the launch's standard output is captured (harness/capture.hpp) and its lines
// are compared with the expected ones as a multiset: blocks run in no promised order.
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "harness/capture.hpp"
#include "harness/index_types.hpp"
#include "harness/lesson.hpp"
#include "hello_threads.cuh"
#include "steps/01_hello_threads.hpp"

namespace {

using hello_threads::kWarpSize;
using hello_threads::Step;

// ============================== shapes ==============================

// A launch: `grid` blocks of `block` threads; `dims` says how coordinates are written (1, 2, 3).
struct Launch {
  dim3 grid, block;
  int dims;
};

Launch l1(unsigned blocks, unsigned threads) {
  return {dim3(blocks), dim3(threads), 1};
}
Launch l2(unsigned gx, unsigned gy, unsigned bx, unsigned by) {
  return {dim3(gx, gy), dim3(bx, by), 2};
}
Launch l3(dim3 grid, dim3 block) {
  return {grid, block, 3};
}

// One block of one thread; one short of, at and one past a warp; 2 blocks of 4 (the README's
// example); block sizes that are not multiples of 32 across several blocks (48 puts block 1's
// first thread in the middle of a global group of 32); primes; the largest block (1024); more
// blocks than gridDim.y or gridDim.z could hold (65537); about a million threads.
const std::vector<Launch> kShapes1d = {l1(1, 1),    l1(1, 31),   l1(1, 32),    l1(1, 33),
                                       l1(2, 4),    l1(2, 32),   l1(3, 31),    l1(3, 33),
                                       l1(5, 48),   l1(4, 64),   l1(7, 100),   l1(13, 97),
                                       l1(1, 1023), l1(2, 1024), l1(65537, 3), l1(4099, 256)};

// Most 2-D blocks have blockDim.y > 1, where threadIdx.x is not the linear thread index (and
// blockDim.x not a multiple of 32, where threadIdx.x % 32 is not the lane either): 8 x 4 is
// exactly one warp; 5 x 7 leaves a warp of 3 threads; 1 x 64 has threadIdx.x = 0 everywhere;
// 32 x 2 and 32 x 32 have the right lanes and the wrong warps; 64 x 1 is a single row; several
// blocks in both grid dimensions, both ways round; 1024 threads per block; gridDim.y = 65535
// (blockIdx.y up to 65534).
const std::vector<Launch> kShapes2d = {
    l2(1, 1, 1, 1),  l2(1, 1, 8, 4),  l2(2, 3, 8, 4),   l2(3, 2, 16, 16),  l2(1, 1, 5, 7),
    l2(4, 3, 33, 3), l2(2, 2, 31, 5), l2(3, 5, 32, 32), l2(7, 11, 3, 5),   l2(100, 3, 1, 64),
    l2(5, 1, 64, 1), l2(1, 7, 32, 2), l2(9, 5, 17, 13), l2(2, 65535, 1, 2)};

// The issue's odd 3 x 5 x 2; exactly one warp (4 x 4 x 2); blockDim.z at its limit of 64;
// primes in every dimension; 1024 threads per block; gridDim.z = 65535; a 1-D shape through the
// 3-D kernel.
const std::vector<Launch> kShapes3d = {
    l3(dim3(1, 1, 1), dim3(1, 1, 1)),    l3(dim3(1, 1, 1), dim3(4, 4, 2)),
    l3(dim3(3, 5, 2), dim3(3, 5, 2)),    l3(dim3(2, 2, 2), dim3(8, 4, 2)),
    l3(dim3(2, 3, 4), dim3(4, 4, 4)),    l3(dim3(1, 1, 2), dim3(1, 1, 64)),
    l3(dim3(5, 3, 7), dim3(7, 5, 3)),    l3(dim3(2, 2, 3), dim3(16, 8, 8)),
    l3(dim3(3, 1, 1), dim3(33, 1, 1)),   l3(dim3(2, 2, 2), dim3(2, 3, 5)),
    l3(dim3(1, 2, 65535), dim3(1, 1, 2))};

// Up to 1024 lines, far below what the device's 1 MB printf buffer holds.
const std::vector<Launch> kPrintShapes = {l1(1, 1),   l1(2, 4),   l1(1, 33), l1(3, 32),
                                          l1(4, 31),  l1(2, 100), l1(5, 64), l1(37, 3),
                                          l1(16, 64), l1(1, 1024)};

std::string shape_name(const Launch& s) {
  if (s.dims == 1) return fmt::format("blocks_{}_threads_{}", s.grid.x, s.block.x);
  if (s.dims == 2)
    return fmt::format("grid_{}x{}_block_{}x{}", s.grid.x, s.grid.y, s.block.x, s.block.y);
  return fmt::format("grid_{}x{}x{}_block_{}x{}x{}", s.grid.x, s.grid.y, s.grid.z, s.block.x,
                     s.block.y, s.block.z);
}

// ============================== the host model ==============================

long long volume(dim3 d) {
  return 1LL * d.x * d.y * d.z;
}

// Coordinates of linear index i in an extent, x fastest (the hardware's order)...
uint3 unflatten(long long i, dim3 e) {
  return make_uint3(static_cast<unsigned>(i % e.x), static_cast<unsigned>(i / e.x % e.y),
                    static_cast<unsigned>(i / (1LL * e.x * e.y)));
}
// ... and z fastest, x slowest (a common mistake).
uint3 unflatten_x_slowest(long long i, dim3 e) {
  return make_uint3(static_cast<unsigned>(i / (1LL * e.z * e.y)),
                    static_cast<unsigned>(i / e.z % e.y), static_cast<unsigned>(i % e.z));
}

bool same(uint3 a, uint3 b) {
  return a.x == b.x && a.y == b.y && a.z == b.z;
}

// "5", "(5, 3)" or "(5, 3, 0)", as the launch's dimensionality reads.
std::string coords(uint3 v, int dims) {
  if (dims == 1) return fmt::format("{}", v.x);
  if (dims == 2) return fmt::format("({}, {})", v.x, v.y);
  return fmt::format("({}, {}, {})", v.x, v.y, v.z);
}

// What every slot holds: the reference, or what a kernel wrote.
struct Slots {
  std::vector<uint3> block_idx, thread_idx;
  std::vector<int> block, thread, global, warp, lane;
};

Slots reference(const Launch& s) {
  const long long per_block = volume(s.block), n = volume(s.grid) * per_block;
  Slots r;
  for (long long g = 0; g < n; ++g) {
    const long long b = g / per_block, t = g % per_block;
    r.block_idx.push_back(unflatten(b, s.grid));
    r.thread_idx.push_back(unflatten(t, s.block));
    r.block.push_back(static_cast<int>(b));
    r.thread.push_back(static_cast<int>(t));
    r.global.push_back(static_cast<int>(g));
    r.warp.push_back(static_cast<int>(t / kWarpSize));
    r.lane.push_back(static_cast<int>(t % kWarpSize));
  }
  return r;
}

// ============================== the index steps ==============================

// The seven outputs of a case, as the Case owns them.
struct Outputs {
  harness::Output<uint3> block_idx, thread_idx;
  harness::Output<int> block, thread, global, warp, lane;
  hello_threads::Ids ids() const {
    return {block_idx.data(), thread_idx.data(), block.data(), thread.data(),
            global.data(),    warp.data(),       lane.data()};
  }
};

Outputs make_outputs(harness::Case& c, std::size_t n) {
  return {c.output<uint3>("block_idx", n), c.output<uint3>("thread_idx", n),
          c.output<int>("block", n),       c.output<int>("thread", n),
          c.output<int>("global", n),      c.output<int>("warp", n),
          c.output<int>("lane", n)};
}

// "lane[37] (block (1, 0), thread (5, 1))": the slot and the thread that owns it.
harness::Where owner(const Launch& s) {
  return [s](const std::string& name, std::size_t g) {
    const long long per_block = volume(s.block);
    return fmt::format("{}[{}] (block {}, thread {})", name, g,
                       coords(unflatten(g / per_block, s.grid), s.dims),
                       coords(unflatten(g % per_block, s.block), s.dims));
  };
}

// The pattern of a known mistake at the first wrong slot of array `name`, in words ("" if none).
// `got` holds what the kernel wrote in every array.
std::string likely_mistake(const Launch& s, const Slots& want, const Slots& got,
                           const std::string& name, std::size_t g) {
  const long long per_block = volume(s.block), n = volume(s.grid) * per_block;
  if (name == "thread_idx" && volume(s.grid) > 1 && harness::still_poisoned(got.thread_idx[g])) {
    bool block0 = false, others = false;
    for (long long i = 0; i < n; ++i) {
      const bool written = !harness::still_poisoned(got.thread_idx[i]);
      if (i < per_block)
        block0 = block0 || written;
      else
        others = others || written;
    }
    if (block0 && !others)
      return fmt::format(
          "Only the slots of block 0 were written: every block wrote slots 0 to {}. This looks "
          "like the global id from threadIdx alone; the threads of the blocks before this one "
          "come first, so g = (linear block index) * {} + (linear thread index)",
          per_block - 1, per_block);
  }
  const long long t = g % per_block, b = g / per_block;
  if (name == "thread_idx" && same(got.thread_idx[g], unflatten_x_slowest(t, s.block)))
    return fmt::format(
        "Thread {} wrote here: it numbered itself {} with z varying fastest, but threadIdx.x must "
        "vary fastest: t = x + y * blockDim.x + z * blockDim.x * blockDim.y",
        coords(got.thread_idx[g], s.dims), t);
  if (name == "block_idx" && same(got.block_idx[g], unflatten_x_slowest(b, s.grid)))
    return fmt::format(
        "Block {} wrote here: it numbered itself {} with z varying fastest, but blockIdx.x must "
        "vary fastest: b = x + y * gridDim.x + z * gridDim.x * gridDim.y",
        coords(got.block_idx[g], s.dims), b);
  if (name != "warp" && name != "lane") return "";
  const bool warp = name == "warp";
  const int value = warp ? got.warp[g] : got.lane[g];
  const unsigned x = want.thread_idx[g].x;
  const std::string right =
      fmt::format("thread {} of its block is number t = {}: warp {}, lane {}",
                  coords(want.thread_idx[g], s.dims), t, t / kWarpSize, t % kWarpSize);
  if (value == static_cast<int>(warp ? x / kWarpSize : x % kWarpSize))
    return "This looks like the warp and lane from threadIdx.x alone: warps are cut from the "
           "linear thread index t = x + y * blockDim.x + z * blockDim.x * blockDim.y, and " +
           right;
  if (value == static_cast<int>(warp ? g / kWarpSize : g % kWarpSize))
    return "This looks like the warp and lane counted from the global id: warps are cut inside "
           "each block (a warp never spans two blocks), and " +
           right;
  return "";
}

// Compares the seven arrays with the reference: the first wrong one in full (with its likely
// mistake), the others by name.
void expect_ids(harness::Case& c, const Launch& s, const Outputs& o) {
  const Slots want = reference(s);
  const Slots got{o.block_idx.download(), o.thread_idx.download(), o.block.download(),
                  o.thread.download(),    o.global.download(),     o.warp.download(),
                  o.lane.download()};
  struct Column {
    std::string name;
    harness::Mismatches m;
    std::function<void(const harness::Advice&)> report;
  };
  std::vector<Column> columns;
  const auto add = [&](const auto& out, const auto& expected, const auto& values) {
    const auto never = [&values](std::size_t i) { return harness::still_poisoned(values[i]); };
    columns.push_back({out.name(), harness::compare_bits(expected, values, never),
                       [&c, &out, &expected, &s](const harness::Advice& a) {
                         c.expect_exact(out, expected, owner(s), a);
                       }});
  };
  // Who wrote the slot first: a wrong slot index shows there before anywhere else.
  add(o.thread_idx, want.thread_idx, got.thread_idx);
  add(o.block_idx, want.block_idx, got.block_idx);
  add(o.thread, want.thread, got.thread);
  add(o.block, want.block, got.block);
  add(o.global, want.global, got.global);
  add(o.warp, want.warp, got.warp);
  add(o.lane, want.lane, got.lane);

  const Column* first = nullptr;
  std::vector<std::string> others;
  for (const Column& col : columns) {
    if (col.m.ok()) continue;
    if (!first)
      first = &col;
    else
      others.push_back(fmt::format("{} ({} of {})", col.name, col.m.wrong, col.m.total));
  }
  if (!first) return;
  std::string advice = likely_mistake(s, want, got, first->name, first->m.first);
  if (!others.empty()) {
    if (!advice.empty()) advice += ". ";
    advice += "Also wrong: ";
    for (std::size_t i = 0; i < others.size(); ++i) advice += (i ? ", " : "") + others[i];
  }
  first->report([advice](const harness::Mismatches&) { return advice; });
}

void index_case(harness::Case& c, Step step, const Launch& s) {
  static const char* const kernels[] = {"ids_1d", "ids_2d", "ids_3d"};
  const char* kernel = kernels[s.dims - 1];
  c.describe(kernel,
             s.dims == 1
                 ? fmt::format("{} block{} of {} thread{}", s.grid.x, s.grid.x == 1 ? "" : "s",
                               s.block.x, s.block.x == 1 ? "" : "s")
                 : fmt::format("grid {} of blocks {}",
                               coords(make_uint3(s.grid.x, s.grid.y, s.grid.z), s.dims),
                               coords(make_uint3(s.block.x, s.block.y, s.block.z), s.dims)));
  const Outputs o = make_outputs(c, static_cast<std::size_t>(volume(s.grid) * volume(s.block)));
  switch (step) {
    case Step::index_1d:
      c.launch(hello_threads::launch_ids_1d, o.ids(), static_cast<int>(s.grid.x),
               static_cast<int>(s.block.x));
      break;
    case Step::index_2d:
      c.launch(hello_threads::launch_ids_2d, o.ids(), s.grid, s.block);
      break;
    default:
      c.launch(hello_threads::launch_ids_3d, o.ids(), s.grid, s.block);
      break;
  }
  expect_ids(c, s, o);
}

// ============================== device_printf ==============================

// Advice for the usual printf mistakes, recognised in what was printed ("" if none).
std::string printf_advice(const harness::LineDiff& d, const std::string& text) {
  for (const std::string& line : harness::split_lines(text)) {
    std::size_t fields = 0;
    for (std::size_t at = line.find("block "); at != std::string::npos;
         at = line.find("block ", at + 1))
      ++fields;
    if (fields > 1)
      return fmt::format(
          "One printed line holds {} \"block\" fields: the lines of several threads ran together. "
          "Each printf must print a whole line: end the format with a newline (\\n)",
          fields);
  }
  bool global_is_thread = !d.unexpected.empty();
  for (const auto& unexpected : d.unexpected) {
    int b = 0, t = 0, g = 0;
    char tail = 0;
    const std::string& line = unexpected.first;
    if (std::sscanf(line.c_str(), "block %d thread %d global %d%c", &b, &t, &g, &tail) != 3 ||
        line != fmt::format("block {} thread {} global {}", b, t, g))
      return "The format is exactly \"block %d thread %d global %d\" and a newline: these "
             "words, single spaces, decimal numbers, nothing else on the line";
    global_is_thread = global_is_thread && g == t;
  }
  if (global_is_thread)
    return "Every wrong line has global = thread: this looks like the global id from threadIdx "
           "alone; the threads of the blocks before this one come first";
  if (!d.unexpected.empty())
    return "Some lines have the right format but numbers that no thread of this launch has: "
           "block = blockIdx.x, thread = threadIdx.x, global = blockIdx.x * blockDim.x + "
           "threadIdx.x";
  return "";
}

void print_case(harness::Case& c, const Launch& s) {
  const int blocks = static_cast<int>(s.grid.x), threads = static_cast<int>(s.block.x);
  c.describe("print_ids", fmt::format("{} block{} of {} thread{}", blocks, blocks == 1 ? "" : "s",
                                      threads, threads == 1 ? "" : "s"));
  std::vector<std::string> expected;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t)
      expected.push_back(fmt::format("block {} thread {} global {}", b, t, b * threads + t));
  const std::string text = harness::capture_device_output(
      [&] { c.launch(hello_threads::launch_print_ids, blocks, threads); });
  const harness::LineDiff d = harness::compare_lines(expected, text);
  if (d.ok()) return;
  std::string message = harness::describe(d);
  if (const std::string advice = printf_advice(d, text); !advice.empty()) message += ". " + advice;
  c.fail(message);
}

}  // namespace

COURSE_TESTS {
  const std::vector<Launch>* shapes[] = {&kShapes1d, &kShapes2d, &kShapes3d};
  int k = 0;
  for (Step step : {Step::index_1d, Step::index_2d, Step::index_3d}) {
    harness::correctness(step, *shapes[k++], shape_name,
                         [step](harness::Case& c, const Launch& s) { index_case(c, step, s); });
  }
  harness::correctness(Step::device_printf, kPrintShapes, shape_name, print_case);
}

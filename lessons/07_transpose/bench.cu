// Lesson 07's table for the lab's bench (Lab 02 §3): the transpose ladder against its copy rung,
// with the transposes you wrote (or the solutions), each checked before it is timed. Kernel names
// let `ncu --kernel-name regex:transpose` select the ladder alone.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "bench.hpp"
#include "steps/07_transpose.hpp"
#include "transpose.cuh"
#include "transpose_steps.hpp"

namespace {

bench::Table transpose_table(const bench::Context& ctx) {
  const int side = 8192;
  const size_t n = static_cast<size_t>(side) * side;
  harness::DeviceBuffer<float> in(n), out(n);
  const std::vector<float> host = harness::random_floats(n, 4);
  in.upload(host);
  std::vector<float> ref(n);
  for (int r = 0; r < side; ++r)
    for (int c = 0; c < side; ++c)
      ref[static_cast<size_t>(c) * side + r] = host[static_cast<size_t>(r) * side + c];
  bench::Table t{
      "transpose", "transpose ladder: 8192x8192 floats, 32x32 tiles, 32x8 threads",
      "effective GB/s = (4 B read + 4 B written) x rows x cols / kernel time",
      "copy_tiled: the same grid, block and bounds checks, no transpose (the copy rung)"};
  const bench::Launch copy = [&](cudaStream_t s) {
    return transpose::launch_copy_tiled(in.data(), out.data(), side, side, s);
  };
  t.rows.push_back(
      bench::measure(ctx, "copy_tiled (ceiling)", copy, copy, 8.0 * n, "both sides coalesced"));
  // The ladder's rungs are the lesson's first steps, each with the launcher its tests grade;
  // a row is named after the step's kernel, transpose_<step>.
  using transpose::Step;
  const struct {
    Step step;
    const char* note;
  } ladder[] = {{Step::naive, "writes strided: 32 sectors per warp store"},
                {Step::tiled, "both sides coalesced; 32-way bank conflicts on the tile read"},
                {Step::tiled_padded, "tile[32][33]: conflict-free"}};
  const auto where = [](std::size_t i) { return fmt::format("out[{}][{}]", i / side, i % side); };
  for (const auto& k : ladder) {
    const transpose::StepLauncher launch = transpose::step_launcher(k.step);
    const bench::Launch run = [&](cudaStream_t s) {
      return launch(in.data(), out.data(), side, side, s);
    };
    t.rows.push_back(
        bench::measure_checked(ctx, std::string("transpose_") + transpose::step_name(k.step), copy,
                               run, 8.0 * n, k.note, out, ref, where));
  }
  return t;
}

}  // namespace

BENCH_TABLE(transpose::kLessonId, "transpose", transpose_table);

// The verdict line's next experiment for this lesson's kernels (grader profile 08): read from
// Nsight Compute's shared-load bank-conflict counter per shared-load instruction
// (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum / smsp__inst_executed_op_shared_ld.sum,
// WARMUP §7.8). Each extra wavefront of a load is one conflict, so the ratio is the extra passes
// per warp load; in this lesson's kernels half the shared loads are the A tile's broadcast
// (conflict-free), so a ratio near 15.5 is the 32-way column read of the unpadded B tile (14.0
// measured on our H200, docs/measured/H200.md, lesson 08: the compiler merges the unpadded
// tiles' loads into 16-byte ones).
#include <fmt/format.h>

#include "advice.hpp"
#include "course/extensions.hpp"

namespace bank_conflicts {

namespace {

using course::profile::KernelMetrics;

std::optional<course::ext::Advice> advise(const KernelMetrics& m) {
  if (m.shared_ld_instructions <= 0 || m.bank_conflicts_ld < 0) return std::nullopt;
  const advice::Verdict v = advice::judge(m.bank_conflicts_ld, m.shared_ld_instructions);
  course::ext::Advice a;
  a.evidence = fmt::format(
      "its shared loads see {:.0f} bank conflicts over {:.0f} load instructions, {:.2f} extra "
      "wavefronts per load ({})",
      m.bank_conflicts_ld, m.shared_ld_instructions, v.extra_per_load, v.summary);
  a.next = v.next;
  return a;
}

const course::ext::AdviceRegistrar registrar{{"08_bank_conflicts", advise}};

}  // namespace

}  // namespace bank_conflicts

// The verdict line's next experiment for this lesson's kernels (grader profile 07): one strided
// side is the naive transpose (the answer is a tile in shared memory), and bank conflicts with
// coalesced global accesses are the unpadded tile (the answer is one column of padding).
#include "course/extensions.hpp"

namespace transpose {

namespace {

using course::profile::KernelMetrics;

std::optional<course::ext::Advice> advise(const KernelMetrics& m) {
  const bool loads = course::profile::loads_strided(m), stores = course::profile::stores_strided(m);
  course::ext::Advice advice = course::profile::generic_advice(m);
  if (loads != stores) {
    advice.next =
        "to stage a tile in shared memory so that both the loads and the stores are coalesced";
    return advice;
  }
  if (!loads && course::profile::conflicts_per_shared_load(m) > 1) {
    advice.next =
        "to pad the shared tile by one column ([32][33]) so a column read hits 32 different banks";
    return advice;
  }
  return std::nullopt;
}

const course::ext::AdviceRegistrar registrar{{"07_transpose", advise}};

}  // namespace

}  // namespace transpose

// The verdict line's next experiment for this lesson's kernels (grader profile 06): a kernel
// whose loads and stores are both strided reads records field by field (an array of
// structures), and the lesson's answer is a structure of arrays.
#include "course/extensions.hpp"

namespace coalescing {

namespace {

using course::profile::KernelMetrics;

std::optional<course::ext::Advice> advise(const KernelMetrics& m) {
  if (!course::profile::loads_strided(m) || !course::profile::stores_strided(m))
    return std::nullopt;
  course::ext::Advice advice = course::profile::generic_advice(m);
  advice.next =
      "to change the data layout so that neighbouring lanes touch neighbouring addresses (a "
      "structure of arrays)";
  return advice;
}

const course::ext::AdviceRegistrar registrar{{"06_coalescing", advise}};

}  // namespace

}  // namespace coalescing

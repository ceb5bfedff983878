#include "harness/manifest_step.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <stdexcept>

#include "harness/device.hpp"

namespace harness {

const course::Manifest& manifest() {
  static const course::Manifest m = [] {
    const char* env = std::getenv("COURSE_MANIFEST");
    return course::Manifest::load(env && *env ? env : COURSE_MANIFEST_PATH);
  }();
  return m;
}

const course::Step& manifest_step(const std::string& lesson, const std::string& step) {
  const course::Lesson* l = manifest().find(lesson);
  const course::Step* s = l ? l->find_step(step) : nullptr;
  if (!s)
    throw std::runtime_error(fmt::format("{}.{} is not in the course manifest", lesson, step));
  return *s;
}

std::optional<double> gate_for(const std::string& lesson, const std::string& step) {
  const course::Step& s = manifest_step(lesson, step);
  if (!s.gate) return std::nullopt;
  return s.gate->fraction_of_ceiling;
}

std::string unsupported(const std::string& lesson, const std::string& step) {
  const course::Lesson* l = manifest().find(lesson);
  const course::Step* s = l ? l->find_step(step) : nullptr;
  const std::string need = s && !s->requires_cc.empty() ? s->requires_cc : (l ? l->min_cc : "");
  const DeviceInfo& d = current_device();
  if (course::cc_at_least(fmt::format("{}.{}", d.cc_major, d.cc_minor), need)) return "";
  return fmt::format("{}.{} needs compute capability {}; this GPU ({}) is {}.{}", lesson, step,
                     need, d.name, d.cc_major, d.cc_minor);
}

}  // namespace harness

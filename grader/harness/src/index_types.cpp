#include "harness/index_types.hpp"

#include <fmt/format.h>

namespace harness {

template <>
std::string show<uint3>(const uint3& v) {
  return fmt::format("({}, {}, {})", v.x, v.y, v.z);
}

}  // namespace harness

#include "harness/data.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstring>

namespace harness {

namespace {
// splitmix64: a fast, well-mixed hash, so element i depends only on (seed, i).
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
double unit(std::uint64_t bits) {
  return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

bool same_bits(float a, float b) {
  return std::memcmp(&a, &b, sizeof(float)) == 0;
}
bool is_poison(float v, std::uint8_t byte) {
  std::uint8_t b[sizeof(float)];
  std::memcpy(b, &v, sizeof(float));
  for (std::uint8_t x : b)
    if (x != byte) return false;
  return true;
}
}  // namespace

std::vector<float> random_floats(std::size_t n, std::uint64_t seed) {
  std::vector<float> v(n);
  const std::uint64_t s = mix(seed);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t h = mix(s ^ (i * 0xD1B54A32D192ED03ull));
    const unsigned kind = static_cast<unsigned>(h & 63);  // 64 buckets
    const double u = unit(mix(h));
    float x;
    if (kind < 2)
      x = 0.0f;  // ~3%
    else if (kind < 4)
      x = -1.0f;  // ~3%
    else if (kind < 10)
      x = static_cast<float>((u - 0.5) * 2e6);  // large magnitudes
    else if (kind < 14)
      x = static_cast<float>((u + 0.01) * 1e-6);  // tiny magnitudes
    else
      x = static_cast<float>(u * 2.0 - 0.5);  // mean 0.5
    v[i] = x;
  }
  return v;
}

Comparison compare_exact(const std::vector<float>& expected, const std::vector<float>& got,
                         std::uint8_t poison_byte) {
  Comparison c;
  c.total = expected.size();
  const std::size_t n = std::min(expected.size(), got.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (same_bits(expected[i], got[i])) continue;
    const bool unwritten = is_poison(got[i], poison_byte);
    if (c.wrong == 0) {
      c.first = i;
      c.expected = expected[i];
      c.got = got[i];
      c.first_unwritten = unwritten;
    }
    ++c.wrong;
    c.unwritten += unwritten;
  }
  c.wrong += expected.size() - n;
  return c;
}

std::string describe(const Comparison& c, std::size_t cols, const std::string& output_name) {
  if (c.ok()) return fmt::format("all {} elements match", c.total);
  const std::size_t r = c.first / cols, col = c.first % cols;
  return fmt::format(
      "{} of {} elements wrong ({} never written); first mismatch at {}[{}][{}] (row {}, col {}, "
      "index {}): expected {}, got {}",
      c.wrong, c.total, c.unwritten, output_name, r, col, r, col, c.first, c.expected,
      c.first_unwritten ? std::string("NaN (never written)") : fmt::format("{}", c.got));
}

std::string shape_name(long long rows, long long cols) {
  return fmt::format("{}x{}", rows, cols);
}

}  // namespace harness

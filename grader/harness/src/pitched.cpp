#include "harness/pitched.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "harness/buffer.hpp"
#include "harness/record.hpp"

namespace harness {

namespace detail {

PitchedMemory::PitchedMemory(std::size_t width, std::size_t rows, std::size_t guard_rows,
                             std::size_t min_pitch)
    : width_(width), rows_(rows), guard_rows_(guard_rows) {
  const std::size_t asked = std::max(width, min_pitch);
  check(cudaMallocPitch(&ptr_, &pitch_, asked, rows + guard_rows),
        fmt::format("cudaMallocPitch({} B per row, {} rows)", asked, rows + guard_rows));
}

PitchedMemory::~PitchedMemory() {
  // After a sticky error or a hung kernel cudaFree would wait forever (see DeviceBuffer).
  if (context_lost().empty()) cudaFree(ptr_);
}

void PitchedMemory::fill(std::uint8_t byte) {
  check(cudaMemset(ptr_, byte, pitch_ * (rows_ + guard_rows_)), "fill pitched buffer");
}

void PitchedMemory::upload(const void* host) {
  check(cudaMemcpy2D(ptr_, pitch_, host, width_, width_, rows_, cudaMemcpyHostToDevice),
        "copy to device (cudaMemcpy2D)");
}

void PitchedMemory::download(void* host) const {
  check(cudaMemcpy2D(host, width_, ptr_, pitch_, width_, rows_, cudaMemcpyDeviceToHost),
        "copy to host (cudaMemcpy2D)");
}

std::vector<std::uint8_t> PitchedMemory::download_all() const {
  std::vector<std::uint8_t> all(pitch_ * (rows_ + guard_rows_));
  check(cudaMemcpy(all.data(), ptr_, all.size(), cudaMemcpyDeviceToHost), "read pitched buffer");
  return all;
}

namespace {

std::string plural(std::size_t n, const char* word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

// Bytes that lost their sentinel: in the padding of the data rows, and in the guard rows.
struct SentinelDamage {
  std::size_t padding_bytes = 0, padding_rows = 0, first_row = 0, first_byte = 0;
  std::size_t guard_bytes = 0, first_guard_row = 0;
};

SentinelDamage sentinel_damage(const std::vector<std::uint8_t>& all, const PitchedLayout& m,
                               std::uint8_t byte) {
  SentinelDamage d;
  for (std::size_t r = 0; r < m.rows; ++r) {
    std::size_t in_row = 0;
    for (std::size_t b = m.width; b < m.pitch; ++b) {
      if (all[r * m.pitch + b] == byte) continue;
      if (d.padding_bytes + in_row == 0) {
        d.first_row = r;
        d.first_byte = b;
      }
      ++in_row;
    }
    d.padding_bytes += in_row;
    d.padding_rows += in_row > 0;
  }
  for (std::size_t i = m.rows * m.pitch; i < all.size(); ++i) {
    if (all[i] == byte) continue;
    if (d.guard_bytes++ == 0) d.first_guard_row = i / m.pitch - m.rows;
  }
  return d;
}

std::string output_padding_message(const std::string& name, const PitchedLayout& m,
                                   const SentinelDamage& d) {
  const std::size_t cols = m.width / m.element;
  return fmt::format(
      "wrote into the padding after row {} of {}: {} of padding changed, in {}; the first is byte "
      "{} of that row, {} past {}[{}][{}], its last element. A row holds {} ({} bytes); the other "
      "{} bytes of its {}-byte pitch belong to no element. Row r starts at (char*){} + r * pitch, "
      "in bytes, and only columns c < {} exist",
      d.first_row, name, plural(d.padding_bytes, "byte"), plural(d.padding_rows, "row"),
      d.first_byte, plural(d.first_byte - m.width + 1, "byte"), name, d.first_row, cols - 1,
      plural(cols, "element"), m.width, m.pitch - m.width, m.pitch, name, cols);
}

std::string output_guard_message(const std::string& name, const PitchedLayout& m,
                                 const SentinelDamage& d) {
  return fmt::format(
      "wrote {} past the last row of {}, outside the output (the first in row {}, {} after the "
      "last row {}): the matrix has {} rows of {}-byte pitch; row r starts at (char*){} + r * "
      "pitch, in bytes, and only rows r < {} exist",
      plural(d.guard_bytes, "byte"), name, m.rows + d.first_guard_row,
      plural(d.first_guard_row + 1, "row"), m.rows - 1, m.rows, m.pitch, name, m.rows);
}

std::string input_sentinel_message(const std::string& name, const PitchedLayout& m,
                                   const SentinelDamage& d) {
  std::string where;
  if (d.padding_bytes > 0)
    where = fmt::format("{} of its padding (the first after row {})",
                        plural(d.padding_bytes, "byte"), d.first_row);
  if (d.guard_bytes > 0)
    where += fmt::format("{}{} past its last row {}", where.empty() ? "" : " and ",
                         plural(d.guard_bytes, "byte"), m.rows - 1);
  return fmt::format(
      "wrote into the input {}: {} changed. An input is only read, and nothing may be written "
      "into a row's padding or past the last row of any matrix",
      name, where);
}

// Elements of an input whose bytes differ from the values uploaded (`initial`, dense).
std::string input_changed_message(const std::string& name, const std::vector<std::uint8_t>& all,
                                  const PitchedLayout& m, const void* initial) {
  const auto* first = static_cast<const std::uint8_t*>(initial);
  const std::size_t cols = m.width / m.element;
  std::size_t changed = 0, first_r = 0, first_c = 0;
  for (std::size_t r = 0; r < m.rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) {
      if (std::memcmp(&all[r * m.pitch + c * m.element], first + (r * cols + c) * m.element,
                      m.element) == 0)
        continue;
      if (changed++ == 0) {
        first_r = r;
        first_c = c;
      }
    }
  if (changed == 0) return "";
  return fmt::format(
      "the input changed: {} of {} differ after the launch (the first is {}[{}][{}]); the "
      "kernel must only read {}",
      plural(changed, "element"), name, name, first_r, first_c, name);
}

}  // namespace

std::vector<std::string> pitched_problems(const std::string& name,
                                          const std::vector<std::uint8_t>& all,
                                          const PitchedLayout& layout, bool input,
                                          const void* initial) {
  std::vector<std::string> out;
  const SentinelDamage d = sentinel_damage(all, layout, input ? kInputGuard : kOutputPoison);
  if (input) {
    if (d.padding_bytes + d.guard_bytes > 0) out.push_back(input_sentinel_message(name, layout, d));
    if (std::string m = input_changed_message(name, all, layout, initial); !m.empty())
      out.push_back(std::move(m));
    return out;
  }
  if (d.padding_bytes > 0) out.push_back(output_padding_message(name, layout, d));
  if (d.guard_bytes > 0) out.push_back(output_guard_message(name, layout, d));
  return out;
}

std::size_t pitched_guard_rows(const Case& c, std::size_t rows, std::size_t element) {
  if (c.timing() || quick()) return 0;  // as Case::guard_for for linear buffers
  return std::max<std::size_t>((element - 1) * rows, 32);
}

}  // namespace detail

void expect_near(Case& c, const PitchedOutput<float>& out, const std::vector<double>& exact,
                 const std::vector<double>& tolerance, Where where, Advice advice) {
  const std::vector<float> got = out.download();
  c.report(
      out.name(),
      compare_near(exact, tolerance, got, [&](std::size_t i) { return still_poisoned(got[i]); }),
      where, advice, "never written");
}

}  // namespace harness

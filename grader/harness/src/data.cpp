#include "harness/data.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <stdexcept>
#include <system_error>
#include <thread>

namespace harness {

std::string mismatch_message(const std::string& name, const Mismatches& m, const Where& where,
                             const char* never) {
  return fmt::format(
      "{}: {} of {} elements wrong{}; first mismatch at {}: expected {}, got {}{}", name, m.wrong,
      m.total, m.unwritten ? fmt::format(" ({} {})", m.unwritten, never) : "", where(name, m.first),
      m.expected, m.got, m.first_unwritten ? fmt::format(" ({})", never) : "");
}

Where flat() {
  return [](const std::string& name, std::size_t i) { return fmt::format("{}[{}]", name, i); };
}

Where row_major(std::size_t cols) {
  return [cols](const std::string& name, std::size_t i) {
    const std::size_t r = i / cols, c = i % cols;
    return fmt::format("{}[{}][{}] (row {}, col {})", name, r, c, r, c);
  };
}

std::vector<float> host_transpose(const std::vector<float>& in, int rows, int cols) {
  if (rows < 0 || cols < 0 ||
      in.size() != static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols))
    throw std::invalid_argument("host_transpose: in.size() is not rows * cols");
  std::vector<float> out(in.size());
  constexpr int B = 64;
  const std::size_t bands = (static_cast<std::size_t>(rows) + B - 1) / B;
  parallel_for(
      bands,
      [&](std::size_t first, std::size_t last) {
        const int end = static_cast<int>(std::min<std::size_t>(rows, last * B));
        for (int r0 = static_cast<int>(first) * B; r0 < end; r0 += B)
          for (int c0 = 0; c0 < cols; c0 += B)
            for (int r = r0; r < std::min(rows, r0 + B); ++r)
              for (int c = c0; c < std::min(cols, c0 + B); ++c)
                out[static_cast<std::size_t>(c) * rows + r] =
                    in[static_cast<std::size_t>(r) * cols + c];
      },
      static_cast<std::size_t>(B) * cols);
  return out;
}

void parallel_for(std::size_t n,
                  const std::function<void(std::size_t begin, std::size_t end)>& chunk,
                  std::size_t elements_per_item) {
  const std::size_t by_work = n * elements_per_item >> 20;
  const std::size_t threads = std::clamp<std::size_t>(
      std::min<std::size_t>(by_work, std::thread::hardware_concurrency()), 1, 16);
  const std::size_t size = (n + threads - 1) / threads;
  // Each range's exception is kept and the first rethrown once every thread has joined: a thread
  // left joinable, or an exception escaping one, would end the process.
  std::vector<std::exception_ptr> errors(threads);
  auto run = [&](std::size_t t) {
    try {
      chunk(std::min(n, t * size), std::min(n, (t + 1) * size));
    } catch (...) {
      errors[t] = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) {
    try {
      pool.emplace_back(run, t);
    } catch (const std::system_error&) {
      run(t);  // no thread to be had: this range on the calling thread
    }
  }
  run(0);
  for (std::thread& t : pool) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

std::vector<float> random_floats(std::size_t n, std::uint64_t seed) {
  return random_values<float>(n, seed);
}

// Each value depends only on (seed, i), so the result is the same whatever the thread count.
template <typename T>
std::vector<T> random_values(std::size_t n, std::uint64_t seed) {
  return draw_values<T>(n, seed, RandomValues<T>{});
}
template std::vector<float> random_values<float>(std::size_t, std::uint64_t);
template std::vector<double> random_values<double>(std::size_t, std::uint64_t);
template std::vector<int> random_values<int>(std::size_t, std::uint64_t);
template std::vector<unsigned> random_values<unsigned>(std::size_t, std::uint64_t);
template std::vector<std::uint8_t> random_values<std::uint8_t>(std::size_t, std::uint64_t);
template std::vector<float4> random_values<float4>(std::size_t, std::uint64_t);

template <typename T>
std::string show(const T& v) {
  return fmt::format("{}", v);
}
template <>
std::string show<float4>(const float4& v) {
  return fmt::format("({}, {}, {}, {})", v.x, v.y, v.z, v.w);
}
template <>
std::string show<std::uint8_t>(const std::uint8_t& v) {
  return fmt::format("{}", static_cast<unsigned>(v));
}
template std::string show<float>(const float&);
template std::string show<double>(const double&);
template std::string show<int>(const int&);
template std::string show<unsigned>(const unsigned&);
template std::string show<long long>(const long long&);
template std::string show<unsigned long long>(const unsigned long long&);

Mismatches compare_elements(std::size_t total, std::size_t compared,
                            const std::function<bool(std::size_t)>& wrong_at,
                            const Unwritten& unwritten,
                            const std::function<void(std::size_t, Mismatches&)>& show_at) {
  // An output of another size than its reference is a mistake in the hidden test, never the
  // student's: elements past the shorter one would go unchecked.
  if (compared != total)
    throw std::logic_error(fmt::format(
        "harness: comparing an output of {} elements with a reference of {}", compared, total));
  // Each range counts on its own; the first mismatch of the first range that has one wins.
  struct Part {
    std::size_t wrong = 0, unwritten = 0, first = 0;
  };
  const std::size_t parts = std::clamp<std::size_t>(compared >> 20, 1, 16);
  std::vector<Part> part(parts);
  const std::size_t size = (compared + parts - 1) / parts;
  parallel_for(
      parts,
      [&](std::size_t p0, std::size_t p1) {
        for (std::size_t p = p0; p < p1; ++p)
          for (std::size_t i = p * size; i < std::min(compared, (p + 1) * size); ++i) {
            if (!wrong_at(i)) continue;
            if (part[p].wrong++ == 0) part[p].first = i;
            part[p].unwritten += unwritten(i);
          }
      },
      size);
  Mismatches m;
  m.total = total;
  for (const Part& p : part) {
    if (p.wrong > 0 && m.wrong == 0) m.first = p.first;
    m.wrong += p.wrong;
    m.unwritten += p.unwritten;
  }
  if (m.wrong > 0) {
    show_at(m.first, m);
    m.first_unwritten = unwritten(m.first);
  }
  return m;
}

Mismatches compare_near(const std::vector<double>& exact, const std::vector<double>& tolerance,
                        const std::vector<float>& got, const Unwritten& unwritten) {
  return compare_elements(
      exact.size(), got.size(),
      [&](std::size_t i) {
        return !(std::isfinite(got[i]) && std::fabs(got[i] - exact[i]) <= tolerance[i]);
      },
      unwritten,
      [&](std::size_t i, Mismatches& m) {
        m.expected = show(static_cast<float>(exact[i]));
        m.got = show(got[i]);
      });
}

std::string shape_name(long long rows, long long cols) {
  return fmt::format("{}x{}", rows, cols);
}

}  // namespace harness

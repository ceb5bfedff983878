/// @file cli_checks.hpp
/// @brief CLI11 validators for numeric options whose messages a person can read: the allowed
/// range in plain numbers and the value given ("--timeout: must be a number of seconds above 0
/// and at most 86400 (got 1e309)"), never a 300-digit bound or "Could not convert".
///
/// Header-only, for the code that builds command lines (the driver and lesson tools, which link
/// CLI11). A value is checked as text before CLI11 converts it, so an out-of-range number never
/// wraps (`--seed -1` is rejected, not read as 2^64 - 1) and never overflows.
#pragma once

#include <CLI/CLI.hpp>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace course::cli {

/// True when `text` is an optional '-' followed by decimal digits only (no '+', spaces, dots).
inline bool is_integer_text(const std::string& text) {
  const std::size_t first = !text.empty() && text[0] == '-' ? 1 : 0;
  if (first >= text.size()) return false;
  for (std::size_t i = first; i < text.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  return true;
}

/// A whole number in [min, max]. Anything else (a fraction, a word, a number out of range,
/// however long) fails with "must be a whole number from MIN to MAX (got TEXT)" + `note`.
inline CLI::Validator whole_number(long long min, long long max, const std::string& note = "") {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        const std::string why =
            fmt::format("must be a whole number from {} to {} (got {}){}", min, max, text, note);
        if (!is_integer_text(text)) return why;
        errno = 0;
        const long long v = std::strtoll(text.c_str(), nullptr, 10);
        if (errno == ERANGE || v < min || v > max) return why;
        return "";
      },
      fmt::format("INT in [{} - {}]", min, max));
}

/// One of `allowed` (whole numbers): --help shows the set ("{4,8}"), and anything else fails
/// with "must be 4 or 8 (got TEXT)". For options that take a few sizes, where an int range would
/// advertise values the tool then rejects.
inline CLI::Validator one_of(std::vector<long long> allowed) {
  std::string set, words;
  for (std::size_t i = 0; i < allowed.size(); ++i) {
    set += (i ? "," : "") + std::to_string(allowed[i]);
    words += (i == 0 ? "" : i + 1 == allowed.size() ? " or " : ", ") + std::to_string(allowed[i]);
  }
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        const std::string why = fmt::format("must be {} (got {})", words, text);
        if (!is_integer_text(text)) return why;
        errno = 0;
        const long long v = std::strtoll(text.c_str(), nullptr, 10);
        if (errno == ERANGE) return why;
        for (long long a : allowed)
          if (v == a) return "";
        return why;
      },
      "{" + set + "}");
}

/// A whole number from 0 to 2^64 - 1 without a sign: "-1" fails instead of wrapping around.
inline CLI::Validator unsigned_number(const std::string& note = "") {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        const std::string why = fmt::format(
            "must be a whole number from 0 to 18446744073709551615 (got {}){}", text, note);
        if (!is_integer_text(text) || text[0] == '-') return why;
        errno = 0;
        std::strtoull(text.c_str(), nullptr, 10);
        return errno == ERANGE ? why : "";
      },
      // No description: CLI11 already shows the option's type (UINT); a description would print
      // as "UINT:UINT", which reads like a pair of numbers.
      "");
}

/// A finite number of seconds, above `min` when `min` is 0 and at least `min` otherwise, and at
/// most `max`.
inline CLI::Validator seconds(double min, double max) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        const std::string range = min == 0 ? fmt::format("above 0 and at most {}", max)
                                           : fmt::format("from {} to {}", min, max);
        const std::string why = fmt::format("must be a number of seconds {} (got {})", range, text);
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !std::isfinite(v)) return why;
        if ((min == 0 ? v <= 0 : v < min) || v > max) return why;
        return "";
      },
      // As the check reads: (0 - max] when 0 itself is refused (the help said [0 - max]).
      min == 0 ? fmt::format("SECONDS in (0 - {}]", max)
               : fmt::format("SECONDS in [{} - {}]", min, max));
}

}  // namespace course::cli

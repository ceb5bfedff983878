// Numbers as students type and read them, placeholders of question texts, and the quiz's random
// numbers: the pieces of course/quiz.hpp that parsing, checking and registered kinds share.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "course/quiz.hpp"
#include "quiz_internal.hpp"

namespace course::quiz {

using detail::trim;

std::uint64_t Random::next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

namespace {

bool is_placeholder_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](unsigned char ch) {
    return std::islower(ch) || ch == '_';
  });
}

std::string known_placeholders(const std::map<std::string, std::string>& values) {
  std::string known;
  for (const auto& [name, value] : values) known += (known.empty() ? "{" : ", {") + name + "}";
  return known;
}

}  // namespace

std::string fill_placeholders(const std::string& text,
                              const std::map<std::string, std::string>& values,
                              std::set<std::string>* used, std::vector<std::string>* errors) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool doubled = i + 1 < text.size() && text[i + 1] == c;
    if ((c == '{' || c == '}') && doubled) {
      out += c;
      ++i;
    } else if (c == '{') {
      const std::size_t close = text.find('}', i);
      const std::string name = close == std::string::npos ? "" : text.substr(i + 1, close - i - 1);
      if (close == std::string::npos || !is_placeholder_name(name)) {
        if (errors)
          errors->push_back("a '{' that opens no placeholder (write {{ for a literal brace)");
        out += c;
        continue;
      }
      auto it = values.find(name);
      if (it == values.end()) {
        if (errors)
          errors->push_back(fmt::format("unknown placeholder {{{}}}; known: {}", name,
                                        known_placeholders(values)));
        out += text.substr(i, close - i + 1);
      } else {
        out += it->second;
        if (used) used->insert(name);
      }
      i = close;
    } else if (c == '}') {
      if (errors)
        errors->push_back("a '}' that closes no placeholder (write }} for a literal brace)");
      out += c;
    } else {
      out += c;
    }
  }
  return out;
}

namespace {

// Digits with optional thousands commas ("1,024"): appends them to `number` and returns where
// they end, or npos when the commas are not thousands separators ("1,5").
std::size_t read_digits(const std::string& s, std::size_t i, std::string& number) {
  std::string digits;
  int group = -1;  // digits since the last comma, -1 before any comma
  bool commas = false;
  for (; i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == ','); ++i) {
    if (s[i] == ',') {
      if (digits.empty() || (group != -1 && group != 3) || (group == -1 && digits.size() > 3))
        return std::string::npos;
      commas = true;
      group = 0;
      continue;
    }
    digits += s[i];
    if (group != -1) ++group;
  }
  if (commas && group != 3) return std::string::npos;
  number += digits;
  return i;
}

// An exponent ("e3", "E-2") at `i`: appended to `number`, returns where it ends (`i` if none).
std::size_t read_exponent(const std::string& s, std::size_t i, std::string& number) {
  if (i >= s.size() || (s[i] != 'e' && s[i] != 'E')) return i;
  std::size_t j = i + 1;
  std::string exponent = "e";
  if (j < s.size() && (s[j] == '+' || s[j] == '-')) exponent += s[j++];
  if (j >= s.size() || !std::isdigit(static_cast<unsigned char>(s[j]))) return i;
  while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) exponent += s[j++];
  number += exponent;
  return j;
}

}  // namespace

std::optional<double> parse_number(const std::string& text) {
  const std::string s = trim(text);
  if (s.empty()) return std::nullopt;
  std::size_t i = 0;
  std::string number;
  if (s[i] == '+' || s[i] == '-') number += s[i++];
  i = read_digits(s, i, number);
  if (i == std::string::npos) return std::nullopt;
  if (i < s.size() && s[i] == '.') {
    number += s[i++];
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) number += s[i++];
  }
  if (number.find_first_of("0123456789") == std::string::npos) return std::nullopt;
  i = read_exponent(s, i, number);
  // What may follow: a unit, "%" or words ("B", "sectors", "GB/s"), but no further digits.
  for (unsigned char c : s.substr(i))
    if (!(std::isalpha(c) || c == '%' || c == ' ' || c == '/' || c == '\t')) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(number.c_str(), &end);
  if (end != number.c_str() + number.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::string format_number(double v) {
  if (std::isfinite(v) && v == std::round(v) && std::fabs(v) < 1e15) {
    const long long n = static_cast<long long>(std::llround(v));
    std::string digits = std::to_string(n < 0 ? -n : n);
    std::string out;
    for (std::size_t k = 0; k < digits.size(); ++k) {
      if (k > 0 && (digits.size() - k) % 3 == 0) out += ',';
      out += digits[k];
    }
    return (n < 0 ? "-" : "") + out;
  }
  return fmt::format("{:.6g}", v);
}

std::string format_percent(double percent) {
  std::string s = fmt::format("{:.1f}", percent);
  if (percent < 100.0 && s == "100.0") s = "99.9";
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s + "%";
}

}  // namespace course::quiz

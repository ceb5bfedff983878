// Small text helpers shared by the quiz's parsing (quiz_parse.cpp) and checking (quiz_check.cpp).
#pragma once

#include <algorithm>
#include <cctype>
#include <string>

namespace course::quiz::detail {

inline std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

inline std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// 'a' for 0, 'b' for 1, ...: how choices are labelled.
inline char letter(int index) {
  return static_cast<char>('a' + index);
}

}  // namespace course::quiz::detail

#include "course/extensions.hpp"

#include <algorithm>
#include <map>

namespace course::ext {

namespace {

// Function-local statics: registrars run during static initialisation, in any order.
std::vector<ToolInfo>& tool_registry() {
  static std::vector<ToolInfo> tools;
  return tools;
}

std::vector<QuizKindInfo>& kind_registry() {
  static std::vector<QuizKindInfo> kinds;
  return kinds;
}

std::vector<AdviceInfo>& advice_registry() {
  static std::vector<AdviceInfo> advice;
  return advice;
}

}  // namespace

void register_tool(ToolInfo info) {
  tool_registry().push_back(std::move(info));
}

std::vector<ToolInfo> tools() {
  std::vector<ToolInfo> sorted = tool_registry();
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const ToolInfo& a, const ToolInfo& b) { return a.name < b.name; });
  return sorted;
}

void register_quiz_kind(QuizKindInfo info) {
  kind_registry().push_back(std::move(info));
}

const QuizKindInfo* find_quiz_kind(const std::string& name) {
  const QuizKindInfo* found = nullptr;
  for (const QuizKindInfo& k : kind_registry()) {
    if (k.name != name) continue;
    if (found) return nullptr;  // registered twice: neither is trusted
    found = &k;
  }
  return found;
}

std::vector<std::string> quiz_kind_names() {
  std::vector<std::string> names;
  for (const QuizKindInfo& k : kind_registry()) names.push_back(k.name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

void register_advice(AdviceInfo info) {
  advice_registry().push_back(std::move(info));
}

std::optional<Advice> lesson_advice(const std::string& lesson,
                                    const profile::KernelMetrics& metrics) {
  for (const AdviceInfo& a : advice_registry())
    if (a.lesson == lesson)
      if (std::optional<Advice> advice = a.advise(metrics)) return advice;
  return std::nullopt;
}

}  // namespace course::ext

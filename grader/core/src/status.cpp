#include "course/status.hpp"

#include <utility>

namespace course {

namespace {

// Each enum's words, once: to_string() and parse_status() both read these tables.
template <class Status>
using Words = std::pair<Status, const char*>;

constexpr Words<TestStatus> kTestStatus[] = {
    {TestStatus::passed, "passed"},       {TestStatus::failed, "failed"},
    {TestStatus::skipped, "skipped"},     {TestStatus::crashed, "crashed"},
    {TestStatus::timed_out, "timed_out"}, {TestStatus::not_run, "not_run"},
};
constexpr Words<StepStatus> kStepStatus[] = {
    {StepStatus::pass, "pass"}, {StepStatus::fail, "fail"}, {StepStatus::skipped, "skipped"}};
constexpr Words<LessonStatus> kLessonStatus[] = {
    {LessonStatus::pass, "pass"},
    {LessonStatus::fail, "fail"},
    {LessonStatus::build_failed, "build_failed"},
    {LessonStatus::no_gpu, "no_gpu"},
    {LessonStatus::unavailable, "unavailable"},
    {LessonStatus::unsupported, "unsupported"},
    {LessonStatus::error, "error"},
};
constexpr Words<LessonMemcheck> kLessonMemcheck[] = {
    {LessonMemcheck::none, ""},
    {LessonMemcheck::ran, "ran"},
    {LessonMemcheck::not_needed, "not_needed"},
    {LessonMemcheck::skipped, "skipped"},
    {LessonMemcheck::unavailable, "unavailable"},
    {LessonMemcheck::failed, "failed"},
};
constexpr Words<StepMemcheck> kStepMemcheck[] = {
    {StepMemcheck::none, ""},           {StepMemcheck::clean, "clean"},
    {StepMemcheck::errors, "errors"},   {StepMemcheck::tests_failed, "tests_failed"},
    {StepMemcheck::not_run, "not_run"},
};
constexpr Words<Verdict> kVerdict[] = {
    {Verdict::pass, "pass"}, {Verdict::fail, "fail"}, {Verdict::impossible, "impossible"}};

// The table of each enum, for the templates below.
const auto& words(TestStatus) {
  return kTestStatus;
}
const auto& words(StepStatus) {
  return kStepStatus;
}
const auto& words(LessonStatus) {
  return kLessonStatus;
}
const auto& words(LessonMemcheck) {
  return kLessonMemcheck;
}
const auto& words(StepMemcheck) {
  return kStepMemcheck;
}
const auto& words(Verdict) {
  return kVerdict;
}

template <class Status>
const char* word_of(Status status) {
  for (const auto& [value, word] : words(status))
    if (value == status) return word;
  return "?";  // a value missing from its table: a bug, visible in the report
}

}  // namespace

bool not_gradable_here(LessonStatus s) {
  return s == LessonStatus::no_gpu || s == LessonStatus::unavailable ||
         s == LessonStatus::unsupported;
}

bool graded_no_step(LessonStatus s) {
  return not_gradable_here(s) || s == LessonStatus::build_failed || s == LessonStatus::error;
}

const char* to_string(TestStatus s) {
  return word_of(s);
}
const char* to_string(StepStatus s) {
  return word_of(s);
}
const char* to_string(LessonStatus s) {
  return word_of(s);
}
const char* to_string(LessonMemcheck m) {
  return word_of(m);
}
const char* to_string(StepMemcheck m) {
  return word_of(m);
}
const char* to_string(Verdict v) {
  return word_of(v);
}

template <class Status>
std::optional<Status> parse_status(std::string_view text) {
  for (const auto& [value, word] : words(Status{}))
    if (text == word) return value;
  return std::nullopt;
}

template std::optional<TestStatus> parse_status(std::string_view);
template std::optional<StepStatus> parse_status(std::string_view);
template std::optional<LessonStatus> parse_status(std::string_view);
template std::optional<LessonMemcheck> parse_status(std::string_view);
template std::optional<StepMemcheck> parse_status(std::string_view);
template std::optional<Verdict> parse_status(std::string_view);

}  // namespace course

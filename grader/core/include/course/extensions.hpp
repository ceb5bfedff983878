/// @file extensions.hpp
/// @brief What a lesson adds to the generic grader from its own folder: command-line tools
/// (`grader sim`), quiz kinds (`"kind": "sectors"`) and profiler advice (the verdict line's next
/// experiment). The generic grader names no lesson; a lesson's features register themselves.
///
/// Where they live: `lessons/NN_name/tools/*.cpp`. Every such file that is not a test is compiled
/// into one OBJECT library linked into the `grader` executable and into `grader_unit_tests`, so
/// that a static registrar object in it always runs (a static library would let the linker drop
/// it). Its CPU tests sit beside it as `lessons/NN_name/tools/*_test.cpp` and are compiled into
/// `grader_unit_tests`. A lesson registers one of each like this:
///
/// ```cpp
/// namespace {
/// class Sim : public course::ext::Tool { ... add_options(CLI::App&), run(const ToolContext&) };
/// const course::ext::ToolRegistrar sim{{"sim", "NN_name", "coalescing simulator: ...",
///                                       "--stride 8", [] { return std::make_unique<Sim>(); }}};
/// const course::ext::QuizKindRegistrar sectors{{"sectors", "NN_name",
///                                               {"params", "ask", "tolerance"}, parse_sectors}};
/// const course::ext::AdviceRegistrar advice{{"NN_name", [](const KernelMetrics& m)
///     -> std::optional<course::ext::Advice> { ... }}};
/// }  // namespace
/// ```
///
/// Registration happens during static initialisation, in an order nobody controls: the
/// registries are function-local statics, and nothing may be looked up before main() starts.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "course/manifest.hpp"
#include "course/profile.hpp"
#include "course/quiz.hpp"

namespace CLI {
class App;
}

/// What lessons register from lessons/NN_name/tools/: tools, quiz kinds, profile advice.
namespace course::ext {

// ---- command-line tools -----------------------------------------------------------------------

/// What a tool is given when it runs.
struct ToolContext {
  const Manifest& manifest;    ///< the course manifest
  bool color = false;          ///< colour wanted (--color against the terminal)
  std::string grader_command;  ///< how the grader was invoked, for messages ("./build/grader")
};

/// A lesson's command-line tool: one subcommand of `grader`.
class Tool {
 public:
  virtual ~Tool() = default;
  /// Adds the tool's options and flags to its subcommand (already named and described). Bind
  /// them to members: the same object runs afterwards.
  virtual void add_options(CLI::App& command) = 0;
  /// Runs after the command line was parsed. @return the exit code (course::ExitCode: 0 done,
  /// 2 for a usage error the options' checks could not catch).
  virtual int run(const ToolContext& context) = 0;
};

/// A tool as registered.
struct ToolInfo {
  std::string name;     ///< the subcommand, e.g. "sim"; must not clash with the grader's own
  std::string lesson;   ///< the lesson whose folder defines it, e.g. "NN_name"
  std::string help;     ///< one line for `grader --help`
  std::string example;  ///< arguments for the example line of `grader --help` ("" = none)
  std::function<std::unique_ptr<Tool>()> make;  ///< creates the tool
};

/// Registers a tool. Names are checked when the grader builds its command line.
void register_tool(ToolInfo info);
/// Every registered tool, sorted by name.
std::vector<ToolInfo> tools();

/// Registers a tool from a static object in the lesson's tools/ file.
struct ToolRegistrar {
  /// Registers `info`.
  explicit ToolRegistrar(ToolInfo info) { register_tool(std::move(info)); }
};

// ---- quiz kinds -------------------------------------------------------------------------------

/// Parses one question of a kind: reads the kind's keys (the common ones are read already: id,
/// kind, prompt, explain), records every problem with reader.error(), and returns the generator
/// (nullptr is allowed once a problem is recorded).
using QuizKindParser = std::function<std::shared_ptr<const quiz::QuestionGenerator>(
    const quiz::QuestionReader& reader, const std::string& prompt, const std::string& explain)>;

/// A quiz kind as registered.
struct QuizKindInfo {
  std::string name;            ///< the "kind" value in quiz.json, e.g. "sectors"
  std::string lesson;          ///< the lesson whose folder defines it
  std::set<std::string> keys;  ///< keys it reads beyond id, kind, prompt and explain
  QuizKindParser parse;        ///< parses and validates one question
};

/// Registers a quiz kind. Names must be unique and differ from the built-in kinds (choice,
/// numeric, prediction, which always win); a name registered twice makes every quiz that uses
/// it fail to parse, saying so. grader_unit_tests checks both.
void register_quiz_kind(QuizKindInfo info);
/// The kind called `name`, or nullptr (also when it is registered twice).
const QuizKindInfo* find_quiz_kind(const std::string& name);
/// Every registered quiz kind's name, sorted.
std::vector<std::string> quiz_kind_names();

/// Registers a quiz kind from a static object in the lesson's tools/ file.
struct QuizKindRegistrar {
  /// Registers `info`.
  explicit QuizKindRegistrar(QuizKindInfo info) { register_quiz_kind(std::move(info)); }
};

// ---- profile advice ---------------------------------------------------------------------------

/// The evidence and next experiment of a verdict line (course/profile.hpp).
using Advice = profile::Advice;

/// Advice for one kernel of the lesson, or no value when the lesson has nothing particular to
/// say about these metrics (the generic advice of course/profile.hpp is used then).
using Adviser = std::function<std::optional<Advice>(const profile::KernelMetrics& metrics)>;

/// Profile advice as registered.
struct AdviceInfo {
  std::string lesson;  ///< the lesson whose kernels it judges, e.g. "NN_name"
  Adviser advise;      ///< the advice
};

/// Registers advice for a lesson. A lesson may register several; the first (in registration
/// order) with something to say wins.
void register_advice(AdviceInfo info);
/// The lesson's advice for `metrics`, or no value when none of its advisers has any.
std::optional<Advice> lesson_advice(const std::string& lesson,
                                    const profile::KernelMetrics& metrics);

/// Registers profile advice from a static object in the lesson's tools/ file.
struct AdviceRegistrar {
  /// Registers `info`.
  explicit AdviceRegistrar(AdviceInfo info) { register_advice(std::move(info)); }
};

}  // namespace course::ext

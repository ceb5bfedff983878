#include "progress.hpp"

#include "course/layout.hpp"
#include "course/text_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>

namespace driver {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// `path` + ".corrupt-YYYYmmdd-HHMMSS", with "-N" added until no such file exists.
fs::path aside_name(const std::string& path) {
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  fs::path aside = path + ".corrupt-" + stamp;
  for (int n = 1; fs::exists(aside); ++n) aside = fmt::format("{}.corrupt-{}-{}", path, stamp, n);
  return aside;
}

// The type each field of the file must have wherever it appears (a step, a quiz, a prediction):
// the accessors read them with json::value(), which throws on a value of another type, as in a
// hand-edited file ("attempts": "two") or one of another shape.
bool fields_well_typed(const json& o) {
  using Check = bool (*)(const json&);
  const Check number = [](const json& v) { return v.is_number(); };
  const Check boolean = [](const json& v) { return v.is_boolean(); };
  const Check text = [](const json& v) { return v.is_string(); };
  static const std::map<std::string, Check> kinds = {
      {"passed", boolean},     {"answers_shown", boolean}, {"fraction", number},
      {"percent", number},     {"score", number},          {"total", number},
      {"best_score", number},  {"best_total", number},     {"first_score", number},
      {"first_total", number}, {"attempts", number},       {"last", text},
      {"last_graded", text},   {"first_passed", text},     {"last_taken", text}};
  if (!o.is_object()) return false;
  for (const auto& [key, value] : o.items())
    if (const auto kind = kinds.find(key); kind != kinds.end() && !kind->second(value))
      return false;
  return true;
}

// Every member of `o` (an object) passes `check`.
template <class Check>
bool all_members(const json& o, Check check) {
  if (!o.is_object()) return false;
  for (const auto& [key, value] : o.items())
    if (!check(value)) return false;
  return true;
}

// Whether `data` has the shape the accessors read: lessons -> id -> steps -> name -> fields,
// hints -> step -> tiers seen, quiz -> fields and predictions -> question -> fields.
bool well_formed(const json& data) {
  if (!data.is_object()) return false;
  if (!data.contains("lessons")) return true;
  return all_members(data["lessons"], [](const json& l) {
    if (!l.is_object()) return false;
    if (l.contains("steps") && !all_members(l["steps"], fields_well_typed)) return false;
    if (l.contains("hints") &&
        !all_members(l["hints"], [](const json& tiers) { return tiers.is_number(); }))
      return false;
    if (!l.contains("quiz")) return true;
    const json& q = l["quiz"];
    return fields_well_typed(q) &&
           (!q.contains("predictions") || all_members(q["predictions"], fields_well_typed));
  });
}

}  // namespace

Progress::Progress(std::string path) : path_(std::move(path)) {
  std::ifstream in(path_);
  if (!in) {  // missing (or unreadable): start afresh
    data_ = json::object();
  } else {
    data_ = json::parse(in, nullptr, /*allow_exceptions=*/false);
    in.close();
    if (!well_formed(data_)) keep_corrupt_file();
  }
  if (!data_.contains("lessons")) data_["lessons"] = json::object();
}

// A file that is not progress is never overwritten: it is renamed aside, and the student told.
void Progress::keep_corrupt_file() {
  data_ = json::object();
  const fs::path aside = aside_name(path_);
  std::error_code ec;
  fs::rename(path_, aside, ec);
  if (ec) {
    read_only_ = true;  // saving would destroy it
    warning_ = fmt::format(
        "{} is not a progress file the grader can read, and it could not be renamed aside ({}): "
        "progress is not saved until you move or repair it",
        path_, ec.message());
    return;
  }
  warning_ = fmt::format(
      "{} is not a progress file the grader can read (not JSON, or not its shape); it was kept "
      "as {} and progress starts afresh",
      path_, aside.string());
}

bool records_progress(const course::LessonReport& lesson) {
  // A --quick grade (memcheck skipped), a --sanitize run (untimed) or a --variant says nothing
  // final about the student's code; nor does a lesson that graded no step.
  return lesson.kind == course::RunKind::grade && lesson.variant.empty() && !lesson.steps.empty();
}

bool Progress::update(const course::LessonReport& lesson, const std::string& when) {
  if (!records_progress(lesson)) return false;
  json& l = data_["lessons"][lesson.id];
  for (const course::StepReport& s : lesson.steps) {
    json& st = l["steps"][s.name];
    const bool passed = s.status == course::StepStatus::pass;
    st["last"] = to_string(s.status);
    st["last_graded"] = when;
    if (passed) {
      st["passed"] = true;
      if (!st.contains("first_passed")) st["first_passed"] = when;
    } else if (!st.contains("passed")) {
      st["passed"] = false;
    }
    if (s.speed) st["fraction"] = std::max(st.value("fraction", 0.0), s.speed->ratio);
  }
  return true;
}

bool Progress::step_passed(const std::string& lesson, const std::string& step) const {
  const json& l = data_["lessons"];
  return l.contains(lesson) && l[lesson].contains("steps") && l[lesson]["steps"].contains(step) &&
         l[lesson]["steps"][step].value("passed", false);
}

bool Progress::step_skipped_here(const std::string& lesson, const std::string& step) const {
  return last_status(lesson, step) == course::StepStatus::skipped;
}

std::optional<course::StepStatus> Progress::last_status(const std::string& lesson,
                                                        const std::string& step) const {
  const json& l = data_["lessons"];
  if (!l.contains(lesson) || !l[lesson].contains("steps") || !l[lesson]["steps"].contains(step))
    return std::nullopt;
  return course::parse_status<course::StepStatus>(l[lesson]["steps"][step].value("last", ""));
}

int Progress::hints_seen(const std::string& lesson, const std::string& step) const {
  const json& l = data_["lessons"];
  if (!l.contains(lesson) || !l[lesson].contains("hints")) return 0;
  return l[lesson]["hints"].value(step, 0);
}

void Progress::set_hints_seen(const std::string& lesson, const std::string& step, int tiers) {
  data_["lessons"][lesson]["hints"][step] = tiers;
}

double Progress::fraction(const std::string& lesson, const std::string& step) const {
  const json& l = data_["lessons"];
  if (!l.contains(lesson) || !l[lesson].contains("steps") || !l[lesson]["steps"].contains(step))
    return -1;
  return l[lesson]["steps"][step].value("fraction", -1.0);
}

void Progress::set_quiz_score(const std::string& lesson, int score, int total,
                              const std::string& when, bool first_try) {
  json& q = data_["lessons"][lesson]["quiz"];
  if (!q.is_object()) q = json::object();
  if (first_try && !q.contains("first_score") && !q.contains("score")) {
    q["first_score"] = score;
    q["first_total"] = total;
  }
  q["answers_shown"] = true;
  const int best_score = q.value("best_score", -1), best_total = q.value("best_total", 0);
  // Better when score/total > best_score/best_total (cross-multiplied: exact, no division by 0).
  const bool better =
      best_score < 0 || best_total <= 0 ||
      static_cast<long long>(score) * best_total > static_cast<long long>(best_score) * total;
  if (better) {
    q["best_score"] = score;
    q["best_total"] = total;
  }
  q["score"] = score;
  q["total"] = total;
  q["attempts"] = q.value("attempts", 0) + 1;
  q["last_taken"] = when;
}

void Progress::note_answers_shown(const std::string& lesson) {
  json& q = data_["lessons"][lesson]["quiz"];
  if (!q.is_object()) q = json::object();
  q["answers_shown"] = true;
}

bool Progress::answers_shown(const std::string& lesson) const {
  const json& l = data_["lessons"];
  if (!l.contains(lesson) || !l[lesson].contains("quiz") || !l[lesson]["quiz"].is_object())
    return false;
  const json& q = l[lesson]["quiz"];
  return q.value("answers_shown", false) || q.contains("score");
}

std::optional<QuizScore> Progress::quiz_score(const std::string& lesson) const {
  const json& l = data_["lessons"];
  if (!l.contains(lesson) || !l[lesson].contains("quiz") || !l[lesson]["quiz"].is_object())
    return std::nullopt;
  const json& q = l[lesson]["quiz"];
  if (!q.contains("score") || !q.contains("total")) return std::nullopt;
  QuizScore s;
  s.score = q.value("score", 0);
  s.total = q.value("total", 0);
  s.best_score = q.value("best_score", s.score);
  s.best_total = q.value("best_total", s.total);
  s.attempts = q.value("attempts", 1);
  s.last_taken = q.value("last_taken", "");
  if (q.contains("first_score")) {
    s.has_first = true;
    s.first_score = q.value("first_score", 0);
    s.first_total = q.value("first_total", s.total);
  } else if (!q.contains("answers_shown") && s.attempts == 1) {
    // Written before attempts were told apart: its only attempt is taken as the first.
    s.has_first = true;
    s.first_score = s.score;
    s.first_total = s.total;
  }
  return s;
}

void Progress::set_prediction(const std::string& lesson, const std::string& question,
                              const std::string& measured_lesson, const std::string& measured_step,
                              double percent, const std::string& when) {
  data_["lessons"][lesson]["quiz"]["predictions"][question] = {
      {"percent", percent}, {"step", measured_lesson + "." + measured_step}, {"when", when}};
}

double Progress::prediction(const std::string& lesson, const std::string& question) const {
  const json& l = data_["lessons"];
  if (!l.contains(lesson) || !l[lesson].contains("quiz")) return -1;
  const json& q = l[lesson]["quiz"];
  if (!q.contains("predictions") || !q["predictions"].contains(question)) return -1;
  return q["predictions"][question].value("percent", -1.0);
}

std::string now_iso() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

bool Progress::save() const {
  return !read_only_ && course::write_text_atomically(path_, data_.dump(2) + "\n");
}

std::string Progress::save_failure() const {
  if (read_only_)
    return fmt::format(
        "could not save progress to {}: the file there is not one the grader can read and was left "
        "as it is (see above): what this run recorded (hint tiers seen, steps passed, quiz scores) "
        "is not kept. Move or repair that file",
        path_);
  std::string why;
  {
    // save() made the folder if it could; asking again gives the system's reason.
    const fs::path dir = fs::path(path_).has_parent_path() ? fs::path(path_).parent_path() : ".";
    std::error_code ec;
    if (!fs::is_directory(dir, ec) && !fs::create_directories(dir, ec) && ec)
      why = fmt::format("{} cannot be created: {}", dir.string(), ec.message());
    else if (::access(dir.c_str(), W_OK) != 0)
      why = fmt::format("{} is not writable: {}", dir.string(), std::strerror(errno));
  }
  return fmt::format(
      "could not save progress to {}{}: what this run recorded (hint tiers seen, steps passed, "
      "quiz scores) is not kept. Make that folder writable, or set GRADER_STATE_DIR to a folder "
      "you can write",
      path_, why.empty() ? "" : " (" + why + ")");
}

std::pair<int, int> lesson_progress(const Progress& p, const course::Lesson& lesson) {
  int done = 0, total = 0;
  for (const course::Step* s : lesson.required_steps()) {
    ++total;
    done += p.step_passed(lesson.id, s->name) || p.step_skipped_here(lesson.id, s->name);
  }
  return {done, total};
}

std::string quiz_summary(const QuizScore& q) {
  if (!q.has_first) return fmt::format("quiz {}/{} (retry)", q.best_score, q.best_total);
  std::string s = fmt::format("quiz {}/{}", q.first_score, q.first_total);
  if (static_cast<long long>(q.best_score) * q.first_total >
      static_cast<long long>(q.first_score) * q.best_total)
    s += fmt::format(", {}/{} on a retry", q.best_score, q.best_total);
  return s;
}

namespace {

// The first ready lesson not done yet, or nullptr.
const course::Lesson* next_lesson(const course::Manifest& m, const Progress& p) {
  for (const course::Lesson& l : m.lessons) {
    if (!l.ready()) continue;
    auto [done, total] = lesson_progress(p, l);
    if (done < total) return &l;
  }
  return nullptr;
}

json quiz_json(const std::optional<QuizScore>& q) {
  if (!q) return nullptr;
  return {{"score", q->has_first ? json(q->first_score) : json(nullptr)},
          {"total", q->has_first ? json(q->first_total) : json(nullptr)},
          {"best_score", q->best_score},
          {"best_total", q->best_total},
          {"attempts", q->attempts},
          {"retry", !q->has_first}};
}

}  // namespace

json course_map_json(const course::Manifest& m, const Progress& p) {
  json lessons = json::array();
  for (const course::Lesson& l : m.lessons) {
    json steps = json::array();
    for (const course::Step& s : l.steps) {
      const double fraction = p.fraction(l.id, s.name);
      const std::optional<course::StepStatus> last = p.last_status(l.id, s.name);
      steps.push_back({{"step", s.name},
                       {"optional", s.optional},
                       {"passed", p.step_passed(l.id, s.name)},
                       {"last", last ? json(to_string(*last)) : json(nullptr)},
                       {"fraction", fraction < 0 ? json(nullptr) : json(fraction)}});
    }
    const auto [done, total] = lesson_progress(p, l);
    lessons.push_back({{"lesson", l.id},
                       {"title", l.title},
                       {"stage", l.stage},
                       {"status", l.status},
                       {"minutes", l.minutes > 0 ? json(l.minutes) : json(nullptr)},
                       {"steps_passed", done},
                       {"steps_total", total},
                       {"done", l.ready() && done == total},
                       {"steps", steps},
                       {"quiz", quiz_json(p.quiz_score(l.id))}});
  }
  const course::Lesson* next = next_lesson(m, p);
  return {{"format", "cuda-course-grader-progress"},
          {"format_version", 1},
          {"course", m.course},
          {"course_version", m.version},
          {"next", next ? json(next->id) : json(nullptr)},
          {"lessons", lessons}};
}

std::string course_map(const course::Manifest& m, const Progress& p, bool color,
                       const std::string& grader_command) {
  auto paint = [&](const std::string& s, const char* code) {
    return color ? fmt::format("\x1b[{}m{}\x1b[0m", code, s) : s;
  };
  const course::Lesson* next = next_lesson(m, p);
  int ready = 0, finished = 0;
  std::string out = paint(fmt::format("{} (course {})", m.course, m.version), "1") + "\n";
  for (const course::Stage& stage : m.stages) {
    out += fmt::format("\nStage {} · {}\n", stage.number, stage.title);
    for (const course::Lesson& l : m.lessons) {
      if (l.stage != stage.number) continue;
      std::string state;
      if (!l.ready()) {
        state = paint("planned", "2");
      } else {
        ++ready;
        auto [done, total] = lesson_progress(p, l);
        finished += done == total;
        std::string marks;
        for (const course::Step* s : l.required_steps())
          marks += p.step_passed(l.id, s->name) ? paint("■", "32") : "□";
        state = fmt::format("{} {}/{} steps", marks, done, total);
        if (done == total) state += " " + paint("done", "32");
        if (const auto quiz = p.quiz_score(l.id)) state += " · " + quiz_summary(*quiz);
      }
      const std::string arrow = &l == next ? paint("▶", "1;36") : " ";
      const std::string time = l.minutes > 0 ? fmt::format("{} min", l.minutes) : "";
      out += fmt::format(" {} {:<24} {:<34} {:>7}  {}\n", arrow, l.id, l.title, time, state);
    }
  }
  const std::size_t planned = m.lessons.size() - static_cast<std::size_t>(ready);
  out += fmt::format("\n{} of {} available lessons done{}.\n", finished, ready,
                     planned > 0 ? fmt::format(" ({} more planned)", planned) : "");
  if (next)
    out += fmt::format("Next: {} — read {}, edit {}/, then run `{} {}`\n", next->id,
                       course::layout::readme("", next->id).generic_string(),
                       course::layout::exercises("", next->id).generic_string(), grader_command,
                       next->id);
  else if (ready > 0)
    out += "Every available lesson is done.\n";
  return out;
}

}  // namespace driver

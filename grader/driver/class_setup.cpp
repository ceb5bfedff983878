#include "class_setup.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "course/text_file.hpp"
#include "process.hpp"

namespace driver {

namespace fs = std::filesystem;

namespace {

constexpr const char* kFormat = "cuda-course-class";
constexpr std::size_t kMinSecretLength = 16;

}  // namespace

nlohmann::json ClassSettings::to_json() const {
  return {{"format", kFormat},
          {"format_version", 1},
          {"lessons", lessons},
          {"quick", quick},
          {"test_timeout", test_timeout},
          {"kernel_timeout", kernel_timeout},
          {"course_origin", course_origin},
          {"course_fingerprint", course_fingerprint},
          {"cmake", cmake},
          {"configure_args", configure_args},
          {"secret_file", secret_file},
          {"secret_source", secret_file.empty() ? std::string("environment ") + kSecretVariable
                                                : "file " + secret_file},
          {"seed_fingerprint", seed_fingerprint},
          {"grader", grader}};
}

ClassSettings ClassSettings::from_json(const nlohmann::json& j) {
  if (!j.is_object() || j.value("format", "") != kFormat || j.value("format_version", 0) != 1)
    throw ClassError("not a class settings file (class.json) of this grader");
  ClassSettings s;
  try {
    s.lessons = j.at("lessons").get<std::vector<std::string>>();
    s.quick = j.at("quick").get<bool>();
    s.test_timeout = j.at("test_timeout").get<double>();
    s.kernel_timeout = j.at("kernel_timeout").get<double>();
    s.course_origin = j.at("course_origin").get<std::string>();
    s.course_fingerprint = j.at("course_fingerprint").get<std::string>();
    s.cmake = j.at("cmake").get<std::string>();
    s.configure_args = j.at("configure_args").get<std::vector<std::string>>();
    s.secret_file = j.at("secret_file").get<std::string>();
    s.seed_fingerprint = j.at("seed_fingerprint").get<std::string>();
    s.grader = j.at("grader").get<std::string>();
  } catch (const nlohmann::json::exception& e) {
    throw ClassError(fmt::format("class.json is malformed: {}", e.what()));
  }
  return s;
}

ClassSettings ClassSettings::load(const ClassDir& dir) {
  const std::optional<std::string> text = course::read_text(dir.settings());
  if (!text)
    throw ClassError(fmt::format(
        "{} is not a class folder: {} is missing (`grader class grade ROSTER -o {}` makes it)",
        dir.root, dir.settings(), dir.root));
  try {
    return from_json(nlohmann::json::parse(*text));
  } catch (const nlohmann::json::exception& e) {
    throw ClassError(fmt::format("{} is not JSON: {}", dir.settings(), e.what()));
  } catch (const ClassError& e) {
    throw ClassError(fmt::format("{}: {}", dir.settings(), e.what()));
  }
}

std::string read_secret(const std::string& secret_file) {
  std::string secret;
  if (!secret_file.empty()) {
    const std::optional<std::string> text = course::read_text(secret_file);
    if (!text) throw ClassError(fmt::format("cannot read the class secret file {}", secret_file));
    secret = *text;
    while (!secret.empty() && (secret.back() == '\n' || secret.back() == '\r')) secret.pop_back();
  } else if (const char* env = std::getenv(kSecretVariable)) {
    secret = env;
  } else {
    throw ClassError(fmt::format(
        "no class secret: the class is graded on inputs drawn from a secret seed that students "
        "never saw. Give it with --secret-file FILE or in ${} (make one with `head -c 24 "
        "/dev/urandom | base64 > class.secret`; keep it out of the course repository)",
        kSecretVariable));
  }
  if (secret.size() < kMinSecretLength)
    throw ClassError(fmt::format(
        "the class secret is {} characters long: use at least {} random ones (`head -c 24 "
        "/dev/urandom | base64`), or its fingerprint could give it away",
        secret.size(), kMinSecretLength));
  return secret;
}

std::string sha256_hex(const std::string& data) {
  const Captured c = run_capture({"sha256sum"}, "", &data);
  if (c.exit_code != 0 || c.output.size() < 64)
    throw ClassError(
        fmt::format("sha256sum (coreutils) did not run: {}", course::first_line(c.output)));
  return c.output.substr(0, 64);
}

std::string secret_fingerprint(const std::string& secret) {
  return sha256_hex("cuda-course class secret fingerprint\n" + secret).substr(0, 12);
}

unsigned long long student_seed(const std::string& secret, const std::string& student) {
  const std::string hex = sha256_hex("cuda-course class seed\n" + secret + "\n" + student);
  const unsigned long long seed = std::stoull(hex.substr(0, 15), nullptr, 16);
  return seed == 0 ? 1 : seed;
}

std::string write_course_archive(const std::string& source_dir, const std::string& archive,
                                 std::string& warning) {
  fs::create_directories(fs::path(archive).parent_path());
  const Captured top = run_capture({"git", "-C", source_dir, "rev-parse", "--show-toplevel"});
  std::error_code ec;
  if (top.exit_code == 0 && fs::equivalent(course::first_line(top.output), source_dir, ec)) {
    const Captured made =
        run_capture({"git", "-C", source_dir, "archive", "--format=tar", "-o", archive, "HEAD"});
    const Captured head = run_capture({"git", "-C", source_dir, "rev-parse", "--short", "HEAD"});
    if (made.exit_code == 0) {
      const Captured dirty =
          run_capture({"git", "-C", source_dir, "status", "--porcelain", "--", ".", ":!exercises"});
      if (!dirty.output.empty())
        warning = fmt::format(
            "the course is graded as committed (HEAD {}); these uncommitted changes are not part "
            "of it:\n{}",
            course::first_line(head.output), dirty.output);
      return fmt::format("git HEAD {} of {}", course::first_line(head.output), source_dir);
    }
  }
  const Captured made =
      run_capture({"tar", "-cf", archive, "--exclude=./.git", "--exclude=./.grader",
                   "--exclude-tag-all=CMakeCache.txt", "-C", source_dir, "."});
  if (made.exit_code != 0)
    throw ClassError(fmt::format("cannot archive the course at {}: {}", source_dir, made.output));
  warning = fmt::format(
      "{} is not a git checkout: the course is graded as it is there, and its exercises/ stubs "
      "stand in for files a submission lacks",
      source_dir);
  return fmt::format("the folder {}", source_dir);
}

std::vector<std::string> work_tree_configure_args(const std::string& binary_dir,
                                                  const std::string& architectures) {
  std::map<std::string, std::string> cache;
  std::istringstream in(course::read_text(binary_dir + "/CMakeCache.txt").value_or(""));
  for (std::string line; std::getline(in, line);) {
    const auto colon = line.find(':'), eq = line.find('=');
    if (line.empty() || line[0] == '#' || line[0] == '/' || colon == std::string::npos ||
        eq == std::string::npos || colon > eq)
      continue;
    cache[line.substr(0, colon)] = line.substr(eq + 1);
  }
  std::vector<std::string> args;
  if (!cache["CMAKE_GENERATOR"].empty()) args = {"-G", cache["CMAKE_GENERATOR"]};
  for (const char* name : {"CMAKE_BUILD_TYPE", "CMAKE_MAKE_PROGRAM", "CMAKE_CXX_COMPILER",
                           "CMAKE_CUDA_COMPILER", "CMAKE_CUDA_HOST_COMPILER"})
    if (!cache[name].empty()) args.push_back(fmt::format("-D{}={}", name, cache[name]));
  const std::string archs =
      architectures.empty() ? cache["CMAKE_CUDA_ARCHITECTURES"] : architectures;
  if (!archs.empty()) args.push_back("-DCMAKE_CUDA_ARCHITECTURES=" + archs);
  // Downloaded dependencies are taken from this build: a node may have no network.
  for (const auto& [name, folder] :
       std::map<std::string, std::string>{{"GTEST", "googletest"},
                                          {"CLI11", "cli11"},
                                          {"FMT", "fmt"},
                                          {"NLOHMANN_JSON", "nlohmann_json"}}) {
    const fs::path src = fs::path(binary_dir) / "_deps" / (folder + "-src");
    if (fs::exists(src))
      args.push_back(fmt::format("-DFETCHCONTENT_SOURCE_DIR_{}={}", name, src.string()));
  }
  args.push_back("-DCOURSE_SOLUTIONS=OFF");
  args.push_back("-DCOURSE_DEV_TARGETS=OFF");
  return args;
}

std::vector<std::string> class_lessons(const course::Manifest& manifest,
                                       const std::vector<std::string>& specs) {
  std::vector<std::string> wanted;
  for (const std::string& spec : specs) {
    course::Selection sel;
    try {
      sel = course::resolve(manifest, spec);
    } catch (const course::UsageError& e) {
      throw ClassError(e.what());
    }
    if (!sel.lesson->ready())
      throw ClassError(fmt::format("lesson {} is planned but not written yet", sel.lesson->id));
    if (sel.step)
      throw ClassError(fmt::format("--lessons takes whole lessons, not the step {}.{}",
                                   sel.lesson->id, sel.step->name));
    wanted.push_back(sel.lesson->id);
  }
  std::vector<std::string> lessons;
  for (const course::Lesson& l : manifest.lessons)
    if (l.ready() &&
        (specs.empty() || std::find(wanted.begin(), wanted.end(), l.id) != wanted.end()))
      lessons.push_back(l.id);
  return lessons;
}

}  // namespace driver

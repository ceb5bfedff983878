/// @file layout.hpp
/// @brief Where a lesson's files are in the course's source tree: the one place the grader, its
/// driver and its tools learn the layout (docs/INSTRUCTORS.md, "Adding a lesson"). CMake has its
/// own copy, in cmake/CourseLesson.cmake's course_lesson(), and the docs describe it for people.
///
/// Four top-level folders hold one folder per lesson id, ID below (e.g. `07_transpose`):
///
///     lessons/ID/         README.md, quiz.json, launch.cu, headers, bench.cu (the manifest,
///                         lessons/course.json, is beside them)
///     exercises/ID/       the student's stubs: the only files a student edits and a class grades
///     solutions/ID/       the same files, solved (rustlings' mirror of exercises/)
///     grader/lessons/ID/  the hidden tests (tests.cu) and the catalogue's wrong kernels (wrong/)
///
/// Every function takes the course's root; with an empty root the path is relative to it
/// ("exercises/07_transpose"), as the class tools keep a submission's files.
#pragma once

#include <array>
#include <filesystem>
#include <string>

namespace course::layout {

inline constexpr const char* kLessonText = "lessons";          ///< the lessons' text and code
inline constexpr const char* kExercises = "exercises";         ///< the students' stubs
inline constexpr const char* kSolutions = "solutions";         ///< the stubs, solved
inline constexpr const char* kHiddenTests = "grader/lessons";  ///< hidden tests, wrong kernels

/// The four folders that hold one folder per lesson, in the order above.
inline constexpr std::array<const char*, 4> kLessonFolders = {kLessonText, kExercises, kSolutions,
                                                              kHiddenTests};

/// lessons/course.json: the manifest.
inline std::filesystem::path manifest(const std::filesystem::path& root) {
  return root / kLessonText / "course.json";
}

/// lessons/ID/: the lesson's text, quiz, launchers and headers.
inline std::filesystem::path lesson_dir(const std::filesystem::path& root, const std::string& id) {
  return root / kLessonText / id;
}

/// lessons/ID/README.md
inline std::filesystem::path readme(const std::filesystem::path& root, const std::string& id) {
  return lesson_dir(root, id) / "README.md";
}

/// lessons/ID/quiz.json
inline std::filesystem::path quiz(const std::filesystem::path& root, const std::string& id) {
  return lesson_dir(root, id) / "quiz.json";
}

/// exercises/ID/: the stubs a student edits.
inline std::filesystem::path exercises(const std::filesystem::path& root, const std::string& id) {
  return root / kExercises / id;
}

/// solutions/ID/
inline std::filesystem::path solutions(const std::filesystem::path& root, const std::string& id) {
  return root / kSolutions / id;
}

/// grader/lessons/ID/: tests.cu and wrong/.
inline std::filesystem::path hidden_tests(const std::filesystem::path& root,
                                          const std::string& id) {
  return root / kHiddenTests / id;
}

/// grader/lessons/ID/wrong/: the catalogue's wrong kernels, one NAME.cu each.
inline std::filesystem::path wrong_kernels(const std::filesystem::path& root,
                                           const std::string& id) {
  return hidden_tests(root, id) / "wrong";
}

}  // namespace course::layout

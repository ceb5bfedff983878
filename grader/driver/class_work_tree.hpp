// The work trees of a class's grading: the clean course extracted once per node, work trees
// (a copy of the course and its build) claimed by one task at a time, a student's exercises/
// written into one, the course files their code changed restored, and the GPU a task takes.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "class_setup.hpp"
#include "class_submission.hpp"
#include "run_lock.hpp"  // FileLock

namespace driver {

/// The clean course, extracted from OUT/course.tar into <work>/course once per course fingerprint.
std::filesystem::path course_copy(const ClassDir& dir, const ClassSettings& s,
                                  const std::filesystem::path& work);

/// Makes `src` hold exactly the course's files outside exercises/, restoring any that differ and
/// removing any the course lacks; returns those paths (relative), sorted.
std::vector<std::string> restore_course_files(const std::filesystem::path& course,
                                              const std::filesystem::path& src);

/// A work tree of <work>: tree-N/src (the course and a student's files) and tree-N/build, claimed
/// by an flock so that tasks running side by side (several GPUs of a node) use different ones.
struct WorkTree {
  std::filesystem::path root;
  FileLock lock;
  std::filesystem::path src() const { return root / "src"; }
  std::filesystem::path build() const { return root / "build"; }
};

/// Claims a work tree of `work` (the first one no other task holds), with the course copied in
/// and configured, unless it already was with the same configuration.
WorkTree claim_tree(const ClassSettings& s, const std::filesystem::path& work,
                    const std::filesystem::path& course);

/// Writes the graded lessons' exercises/ into `src`: the stubs, with the submission's files over
/// them. A file already as wanted is left alone, so the build compiles only what changed.
void install_exercises(const std::filesystem::path& course, const std::filesystem::path& src,
                       const std::vector<std::string>& lessons, const Intake& intake);

/// Takes one of `gpus` (OUT/locks/gpu-<id>.lock) for the GPU part of a grade, waiting while all
/// are in use, and makes it the only GPU the hidden tests see.
FileLock take_gpu(const ClassDir& dir, const std::vector<std::string>& gpus);

}  // namespace driver

#include "sanitizer.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "course/config.hpp"
#include "process.hpp"

namespace driver {

namespace fs = std::filesystem;

std::string find_sanitizer() {
  if (const char* chosen = std::getenv("GRADER_COMPUTE_SANITIZER"); chosen && *chosen)
    return chosen;
  std::vector<fs::path> candidates;
  if (const fs::path bin = fs::path(course::config::kCudaCompiler).parent_path(); !bin.empty())
    // A full toolkit has bin/compute-sanitizer and the program itself in compute-sanitizer/.
    candidates = {bin / "compute-sanitizer",
                  bin.parent_path() / "compute-sanitizer" / "compute-sanitizer"};
  candidates.push_back("/usr/local/cuda/bin/compute-sanitizer");
  std::error_code ec;
  for (const fs::path& p : candidates)
    if (fs::is_regular_file(p, ec)) return p.string();
  const Captured which = run_capture({"sh", "-c", "command -v compute-sanitizer"});
  std::string path = which.output.substr(0, which.output.find('\n'));
  return which.exit_code == 0 ? path : "";
}

std::vector<std::string> other_sanitizers() {
  std::vector<std::string> found;
  std::error_code ec;
  for (const fs::path root : {"/usr/local", "/opt", "/opt/nvidia"})
    for (const fs::directory_entry& d : fs::directory_iterator(root, ec)) {
      const std::string name = d.path().filename().string();
      if (name.rfind("cuda", 0) != 0 && name.rfind("hpc_sdk", 0) != 0) continue;
      const fs::path p = d.path() / "bin" / "compute-sanitizer";
      if (fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0) found.push_back(p.string());
    }
  std::sort(found.begin(), found.end());
  return found;
}

std::string missing_sanitizer_reason(const std::string& toolkit_bin,
                                     const std::vector<std::string>& elsewhere) {
  if (!elsewhere.empty())
    return fmt::format(
        "compute-sanitizer is installed at {}, but not with this build's CUDA toolkit ({}) nor on "
        "PATH: put its folder on PATH (export PATH={}:$PATH) or set "
        "GRADER_COMPUTE_SANITIZER={}",
        elsewhere.front(), toolkit_bin, fs::path(elsewhere.front()).parent_path().string(),
        elsewhere.front());
  return fmt::format(
      "compute-sanitizer is not installed: the CUDA toolkit in {} has none next to nvcc, and "
      "there is none on PATH. It is part of the full CUDA toolkit (NVIDIA's installer, or the "
      "cuda-sanitizer-<version> package of NVIDIA's repository, e.g. cuda-sanitizer-13-0)",
      toolkit_bin.empty() ? "(none found)" : toolkit_bin);
}

std::string usable_sanitizer(const GradeOptions& o, std::string& why) {
  const std::string path = o.sanitizer.empty() ? find_sanitizer() : o.sanitizer;
  if (!path.empty() && ::access(path.c_str(), X_OK) == 0) return path;
  why = path.empty() ? missing_sanitizer_reason(
                           fs::path(course::config::kCudaCompiler).parent_path().string(),
                           other_sanitizers())
                     : fmt::format("compute-sanitizer {} is not an executable file", path);
  return "";
}

SanitizerFindings sanitizer_findings(const std::string& log) {
  SanitizerFindings f;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    // memcheck, synccheck, initcheck: "ERROR SUMMARY: N errors"; racecheck:
    // "RACECHECK SUMMARY: H hazards displayed (E errors, W warnings)".
    if (const auto at = line.find("ERROR SUMMARY: "); at != std::string::npos) {
      f.errors += std::atoi(line.c_str() + at + 15);
      continue;
    }
    if (const auto at = line.find("RACECHECK SUMMARY: "); at != std::string::npos) {
      if (const auto paren = line.find('(', at); paren != std::string::npos)
        f.errors += std::atoi(line.c_str() + paren + 1);
      continue;
    }
    if (line.rfind("========= ", 0) != 0 || line.find("COMPUTE-SANITIZER") != std::string::npos)
      continue;
    const std::string text = line.substr(10);
    if (text.find_first_not_of(' ') == std::string::npos) continue;
    if (f.first_lines.size() < 8) f.first_lines.push_back(text);
  }
  return f;
}

}  // namespace driver

#include "harness/capture.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <map>

#include "harness/cuda_check.hpp"

namespace harness {

namespace {

// Everything buffered for standard output goes out now, to wherever descriptor 1 points.
void flush_stdout() {
  std::cout.flush();
  std::fflush(stdout);
}

std::string errno_text(const char* what) {
  return fmt::format("capturing standard output: {} failed: {}", what, std::strerror(errno));
}

}  // namespace

StdoutCapture::StdoutCapture() {
  flush_stdout();
  file_ = std::tmpfile();
  if (!file_) throw CaptureError(errno_text("tmpfile()"));
  saved_ = dup(STDOUT_FILENO);
  if (saved_ < 0) {
    const std::string why = errno_text("dup(1)");
    std::fclose(file_);
    file_ = nullptr;
    throw CaptureError(why);
  }
  if (dup2(fileno(file_), STDOUT_FILENO) < 0) {
    const std::string why = errno_text("dup2()");
    close(saved_);
    saved_ = -1;
    std::fclose(file_);
    file_ = nullptr;
    throw CaptureError(why);
  }
}

StdoutCapture::~StdoutCapture() {
  restore();
  if (file_) std::fclose(file_);
}

void StdoutCapture::restore() noexcept {
  if (saved_ < 0) return;
  flush_stdout();  // what was printed during the capture belongs to the file
  dup2(saved_, STDOUT_FILENO);
  close(saved_);
  saved_ = -1;
}

std::string StdoutCapture::finish() {
  if (!file_) return "";
  restore();
  // Descriptor 1 and the file shared one file offset while captured: read from the start with
  // pread, which does not depend on it.
  std::string text;
  char buf[4096];
  const int fd = fileno(file_);
  for (off_t at = 0;;) {
    const ssize_t n = pread(fd, buf, sizeof buf, at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string why = errno_text("reading the temporary file");
      std::fclose(file_);
      file_ = nullptr;
      throw CaptureError(why);
    }
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
    at += n;
  }
  std::fclose(file_);
  file_ = nullptr;
  return text;
}

std::string capture_device_output(const std::function<void()>& launch) {
  StdoutCapture capture;  // restores standard output on every way out of this function
  launch();
  // The device's printf buffer reaches the host at a synchronization (Programming Guide,
  // "Formatted Output"); waiting by polling, as harness::wait() does, does not flush it.
  if (context_lost().empty())
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize() after the launch (flushes printf)");
  return capture.finish();
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    const std::size_t last = line.find_last_not_of(" \t\r");
    line.erase(last == std::string::npos ? 0 : last + 1);
    if (!line.empty()) lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

std::size_t LineDiff::missing_count() const {
  std::size_t n = 0;
  for (const auto& m : missing) n += m.second;
  return n;
}

LineDiff compare_lines(const std::vector<std::string>& expected, const std::string& text) {
  const std::vector<std::string> printed = split_lines(text);
  std::map<std::string, std::size_t> want, got;
  for (const std::string& l : expected) ++want[l];
  for (const std::string& l : printed) ++got[l];
  LineDiff d;
  d.expected = expected.size();
  d.printed = printed.size();
  std::map<std::string, bool> listed;
  for (const std::string& l : expected) {  // each distinct line once, in the expected order
    if (listed[l]) continue;
    listed[l] = true;
    const std::size_t w = want[l], g = got.count(l) ? got[l] : 0;
    if (g < w) d.missing.emplace_back(l, w - g);
  }
  std::map<std::string, bool> seen;
  for (const std::string& l : printed) {  // each distinct line once, in the printed order
    if (seen[l]) continue;
    seen[l] = true;
    const std::size_t w = want.count(l) ? want[l] : 0, g = got[l];
    if (w == 0)
      d.unexpected.emplace_back(l, g);
    else if (g > w)
      d.repeated.emplace_back(l, g);
  }
  return d;
}

namespace {

// `"a", "b" and 3 more` style list of at most `examples` quoted lines, with `show` per line.
template <typename Show>
std::string examples_of(const std::vector<std::pair<std::string, std::size_t>>& lines,
                        std::size_t examples, Show show) {
  std::string out;
  for (std::size_t i = 0; i < lines.size() && i < examples; ++i)
    out += (i ? ", " : "") + show(lines[i]);
  if (lines.size() > examples) out += fmt::format(" and {} more", lines.size() - examples);
  return out;
}

// A line in quotes; a very long one (lines that ran together) cut to its start and its length.
std::string quoted(const std::string& line) {
  constexpr std::size_t kLongest = 100;
  if (line.size() <= kLongest) return "\"" + line + "\"";
  return fmt::format("\"{}...\" ({} characters)", line.substr(0, kLongest), line.size());
}

}  // namespace

std::string describe(const LineDiff& d, std::size_t examples) {
  if (d.ok()) return "";
  if (d.printed == 0) {
    std::string text =
        fmt::format("printed nothing, expected {} line{}", d.expected, d.expected == 1 ? "" : "s");
    if (!d.missing.empty()) text += " such as " + quoted(d.missing.front().first);
    return text;
  }
  std::vector<std::string> parts;
  if (!d.missing.empty())
    parts.push_back(fmt::format(
        "{} of {} expected line{} never printed (e.g. {})", d.missing_count(), d.expected,
        d.expected == 1 ? "" : "s",
        examples_of(d.missing, examples, [](const auto& m) { return quoted(m.first); })));
  if (!d.repeated.empty())
    parts.push_back(fmt::format("{} line{} printed more than once (e.g. {})", d.repeated.size(),
                                d.repeated.size() == 1 ? "" : "s",
                                examples_of(d.repeated, examples, [](const auto& r) {
                                  return fmt::format("{} {} times", quoted(r.first), r.second);
                                })));
  if (!d.unexpected.empty())
    parts.push_back(fmt::format(
        "{} line{} not expected at all (e.g. {})", d.unexpected.size(),
        d.unexpected.size() == 1 ? "" : "s", examples_of(d.unexpected, examples, [](const auto& u) {
          return u.second == 1 ? quoted(u.first)
                               : fmt::format("{} {} times", quoted(u.first), u.second);
        })));
  std::string text = fmt::format("printed {} line{}, expected {}: ", d.printed,
                                 d.printed == 1 ? "" : "s", d.expected);
  for (std::size_t i = 0; i < parts.size(); ++i) text += (i ? "; " : "") + parts[i];
  return text;
}

}  // namespace harness

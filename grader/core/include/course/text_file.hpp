/// @file text_file.hpp
/// @brief Whole-file text I/O and the marked blocks of PROFILE.md, in one place for the grader,
/// its driver and the bench.
#pragma once

#include <optional>
#include <string>

namespace course {

/// The whole file, or std::nullopt when it cannot be read.
std::optional<std::string> read_text(const std::string& path);

/// Writes `text` to `path` through a temporary file renamed over it, so a crash never leaves half
/// a file. Creates missing parent folders. Returns false when it cannot write.
bool write_text_atomically(const std::string& path, const std::string& text);

/// Replaces what stands between the lines `<!-- ID:begin -->` and `<!-- ID:end -->` in `doc`
/// with "\n" + `body`, keeping both markers (so it can be done again). A marker counts only as a
/// whole line (prose may quote it). Returns false, leaving `doc` unchanged, when the markers are
/// missing or out of order.
bool replace_marked_block(std::string& doc, const std::string& id, const std::string& body);

}  // namespace course

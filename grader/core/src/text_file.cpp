#include "course/text_file.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace course {

std::optional<std::string> read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

bool write_text_atomically(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::path(path).has_parent_path()) fs::create_directories(fs::path(path).parent_path(), ec);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!(out << text)) return false;
  }
  fs::rename(tmp, path, ec);
  return !ec;
}

bool replace_marked_block(std::string& doc, const std::string& id, const std::string& body) {
  const std::string begin = "<!-- " + id + ":begin -->", end = "<!-- " + id + ":end -->";
  // A marker counts only as a line of its own: prose may quote it (docs/INSTRUCTORS.md does).
  const auto own_line = [&](const std::string& marker, std::size_t from) {
    for (auto at = doc.find(marker, from); at != std::string::npos; at = doc.find(marker, at + 1)) {
      const std::size_t after = at + marker.size();
      if ((at == 0 || doc[at - 1] == '\n') && (after == doc.size() || doc[after] == '\n'))
        return at;
    }
    return std::string::npos;
  };
  const auto b = own_line(begin, 0);
  if (b == std::string::npos) return false;
  const auto e = own_line(end, b);
  if (e == std::string::npos) return false;
  doc = doc.substr(0, b + begin.size()) + "\n" + body + doc.substr(e);
  return true;
}

}  // namespace course

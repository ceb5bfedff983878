#include "harness/record.hpp"

#include <mutex>

#include "harness/reporter.hpp"

namespace harness {

namespace {
// The speed test checks its kept launches on several threads at once (lesson.cpp), and each
// check's Case records its seed and shape.
std::mutex g_record;
unsigned long long g_seed = 1;
bool g_quick = false;
bool g_skip_large = false;
}  // namespace

void record(const std::string& key, double value) {
  const std::lock_guard<std::mutex> lock(g_record);
  current_properties()[key] = value;
}
void record(const std::string& key, const std::string& value) {
  const std::lock_guard<std::mutex> lock(g_record);
  current_properties()[key] = value;
}
void record(const std::string& key, const char* value) {
  const std::lock_guard<std::mutex> lock(g_record);
  current_properties()[key] = value;
}
void record(const std::string& key, bool value) {
  const std::lock_guard<std::mutex> lock(g_record);
  current_properties()[key] = value;
}
void record_null(const std::string& key) {
  const std::lock_guard<std::mutex> lock(g_record);
  current_properties()[key] = nullptr;
}

unsigned long long seed() {
  return g_seed;
}
void set_seed(unsigned long long s) {
  g_seed = s;
}
bool quick() {
  return g_quick;
}
bool skip_large() {
  return g_quick || g_skip_large;
}
void set_skip_large(bool s) {
  g_skip_large = s;
}
void set_quick(bool q) {
  g_quick = q;
}

}  // namespace harness

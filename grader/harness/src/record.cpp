#include "harness/record.hpp"

#include "harness/reporter.hpp"

namespace harness {

namespace {
unsigned long long g_seed = 1;
bool g_quick = false;
bool g_skip_large = false;
bool g_skip_profiled = false;
}  // namespace

void record(const std::string& key, double value) {
  current_properties()[key] = value;
}
void record(const std::string& key, const std::string& value) {
  current_properties()[key] = value;
}
void record(const std::string& key, const char* value) {
  current_properties()[key] = value;
}
void record(const std::string& key, bool value) {
  current_properties()[key] = value;
}
void record_null(const std::string& key) {
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
bool skip_profiled() {
  return g_quick || g_skip_profiled;
}
void set_skip_profiled(bool s) {
  g_skip_profiled = s;
}
void set_quick(bool q) {
  g_quick = q;
}

}  // namespace harness

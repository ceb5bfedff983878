#include "course/protocol.hpp"

#include <sstream>

namespace course::protocol {

ChildLog parse_log(const std::string& text) {
  ChildLog log;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    nlohmann::json r = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (r.is_discarded() || !r.is_object()) continue;
    const std::string event = r.value("event", "");
    if (event == "device") {
      log.device = r;
    } else if (event == "no_gpu") {
      log.no_gpu = true;
      log.no_gpu_reason = r.value("reason", "");
    } else if (event == "start") {
      log.running = r.value("test", "");
    } else if (event == "end") {
      TestRecord t;
      t.name = r.value("test", "");
      // A status that is none of the protocol's words counts as a failure.
      t.status = parse_status<TestStatus>(r.value("status", "failed")).value_or(TestStatus::failed);
      t.failures = r.value("failures", std::vector<std::string>{});
      t.properties = r.value("properties", nlohmann::json::object());
      t.ms = r.value("ms", 0.0);
      if (t.name == log.running) log.running.clear();
      log.finished.push_back(std::move(t));
    } else if (event == "waiting_for_quiet_gpu") {
      ++log.waiting;
      if (r.value("on", "") == "machine") ++log.waiting_on_machine;
    } else if (event == "exit") {
      log.exit_code = r.value("code", -1);
    } else if (event == "fatal") {
      log.fatal_reason = r.value("reason", "");
      log.fatal_test = r.value("test", "");
    }
  }
  return log;
}

std::string step_of(const std::string& test_name) {
  const auto slash = test_name.find('/');
  return slash == std::string::npos ? "" : test_name.substr(0, slash);
}

}  // namespace course::protocol

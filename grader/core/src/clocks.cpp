#include "course/clocks.hpp"

#include "course/speed_record.hpp"

namespace course {

namespace {
// NVML's clocks event reason bits (nvml.h: nvmlClocksEventReason* / nvmlClocksThrottleReason*)
// that mean the GPU slowed down for heat or power.
struct ReasonBit {
  unsigned long long bit;
  const char* name;
};
constexpr ReasonBit kThermalOrPower[] = {
    {0x4ULL, "sw_power_cap"}, {0x8ULL, "hw_slowdown"},     {0x20ULL, "sw_thermal"},
    {0x40ULL, "hw_thermal"},  {0x80ULL, "hw_power_brake"},
};
}  // namespace

std::vector<std::string> throttle_reasons(unsigned long long mask) {
  std::vector<std::string> out;
  for (const ReasonBit& r : kThermalOrPower)
    if (mask & r.bit) out.push_back(r.name);
  return out;
}

nlohmann::json clock_properties(const ClockSample& before, const ClockSample& after) {
  nlohmann::json p = nlohmann::json::object();
  auto put = [&](const char* key, const std::optional<unsigned>& value) {
    if (value) p[key] = *value;
  };
  put(speed_key::kSmClockMhzBefore, before.sm_mhz);
  put(speed_key::kSmClockMhzAfter, after.sm_mhz);
  put(speed_key::kMemClockMhzBefore, before.mem_mhz);
  put(speed_key::kMemClockMhzAfter, after.mem_mhz);
  put(speed_key::kTemperatureCBefore, before.temperature_c);
  put(speed_key::kTemperatureCAfter, after.temperature_c);
  if (before.event_reasons || after.event_reasons) {
    // Decoding the union keeps the names in bit order and each name once.
    p[speed_key::kThrottleReasons] =
        throttle_reasons(before.event_reasons.value_or(0) | after.event_reasons.value_or(0));
  }
  return p;
}

}  // namespace course

#include "harness/clocks.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <map>

#include "harness/cuda_check.hpp"
#include "harness/reporter.hpp"

namespace harness {

namespace {

// The few NVML declarations we use, written out because the CUDA toolkit does not always ship
// nvml.h (its nvml-dev component is optional) and because nothing may link libnvidia-ml. Names,
// values and signatures are those of nvml.h (NVML API Reference: "Device Queries", "Device
// Enums", "NvmlClocksEventReasons"); C enums are passed as int.
using NvmlReturn = int;                       // nvmlReturn_t
constexpr NvmlReturn kNvmlSuccess = 0;        // NVML_SUCCESS
using NvmlDevice = struct NvmlDeviceOpaque*;  // nvmlDevice_t (an opaque pointer)
constexpr int kNvmlClockSm = 1;               // nvmlClockType_t NVML_CLOCK_SM
constexpr int kNvmlClockMem = 2;              // nvmlClockType_t NVML_CLOCK_MEM
constexpr int kNvmlTemperatureGpu = 0;        // nvmlTemperatureSensors_t NVML_TEMPERATURE_GPU

// nvmlReturn_t nvmlInit_v2(void)
using InitFn = NvmlReturn (*)();
// nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char* pciBusId, nvmlDevice_t* device)
using HandleByPciBusIdFn = NvmlReturn (*)(const char*, NvmlDevice*);
// nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t, nvmlClockType_t, unsigned int* clockMHz)
using ClockInfoFn = NvmlReturn (*)(NvmlDevice, int, unsigned*);
// nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t, nvmlTemperatureSensors_t, unsigned int*)
using TemperatureFn = NvmlReturn (*)(NvmlDevice, int, unsigned*);
// nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t, unsigned long long*), and
// its older name nvmlDeviceGetCurrentClocksThrottleReasons (all that older drivers have).
using ReasonsFn = NvmlReturn (*)(NvmlDevice, unsigned long long*);

// NVML, loaded and initialised once per process. Never unloaded: a dlclose at exit gains nothing
// and can race other exit-time code.
struct Nvml {
  HandleByPciBusIdFn handle_by_pci_bus_id = nullptr;
  ClockInfoFn clock_info = nullptr;
  TemperatureFn temperature = nullptr;
  ReasonsFn reasons = nullptr;
  bool ok = false;                    // loaded and initialised
  std::map<int, NvmlDevice> devices;  // CUDA device index -> NVML handle (nullptr: not found)

  Nvml() {
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return;
    auto init = reinterpret_cast<InitFn>(dlsym(lib, "nvmlInit_v2"));
    handle_by_pci_bus_id =
        reinterpret_cast<HandleByPciBusIdFn>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
    clock_info = reinterpret_cast<ClockInfoFn>(dlsym(lib, "nvmlDeviceGetClockInfo"));
    temperature = reinterpret_cast<TemperatureFn>(dlsym(lib, "nvmlDeviceGetTemperature"));
    reasons = reinterpret_cast<ReasonsFn>(dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons"));
    if (!reasons)
      reasons =
          reinterpret_cast<ReasonsFn>(dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons"));
    ok = init && handle_by_pci_bus_id && init() == kNvmlSuccess;
  }

  // The NVML handle of CUDA device `index`, matched by PCI bus id; nullptr when not found.
  NvmlDevice device(int index) {
    auto it = devices.find(index);
    if (it != devices.end()) return it->second;
    NvmlDevice d = nullptr;
    char bus_id[32] = {};  // "0000:41:00.0"; NVML accepts "domain:bus:device.function" in hex
    if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, index) == cudaSuccess) {
      if (handle_by_pci_bus_id(bus_id, &d) != kNvmlSuccess) d = nullptr;
    } else {
      cudaGetLastError();  // our failed query must not surface as a later test's error
    }
    devices[index] = d;
    return d;
  }
};

Nvml& nvml() {
  static Nvml n;
  return n;
}

}  // namespace

course::ClockSample sample_clocks() {
  course::ClockSample s;
  if (!context_lost().empty()) return s;  // CUDA calls would fail or hang
  Nvml& n = nvml();
  if (!n.ok) return s;
  int index = 0;
  if (cudaGetDevice(&index) != cudaSuccess) {
    cudaGetLastError();
    return s;
  }
  NvmlDevice d = n.device(index);
  if (!d) return s;
  unsigned value = 0;
  if (n.clock_info && n.clock_info(d, kNvmlClockSm, &value) == kNvmlSuccess) s.sm_mhz = value;
  if (n.clock_info && n.clock_info(d, kNvmlClockMem, &value) == kNvmlSuccess) s.mem_mhz = value;
  if (n.temperature && n.temperature(d, kNvmlTemperatureGpu, &value) == kNvmlSuccess)
    s.temperature_c = value;
  unsigned long long mask = 0;
  if (n.reasons && n.reasons(d, &mask) == kNvmlSuccess) s.event_reasons = mask;
  return s;
}

void record_clocks(const course::ClockSample& before, const course::ClockSample& after) {
  current_properties().update(course::clock_properties(before, after));
}

}  // namespace harness
